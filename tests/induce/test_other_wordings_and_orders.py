"""A template the engine never saw: labels in words nobody foresaw, values printed before their labels, rows
above their section's heading, a wrapper class on every cell, an e-mail beside a website (issue 28, round 4).

Each test is a small fragment shaped like a real detail page: three seed pages of one site with different
records and a fourth, unseen page that checks the forged spec. The rules under test read value kinds,
layout and what varies across the seeds; no site, field list or wording is named by them.
"""

from __future__ import annotations

from lxml import etree

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.candidates import anchored_path
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import induce_heuristic, rank_candidates
from scrapesmith.induce.kinds import is_url, names_another_kind, telling_check

JOBS = [("Livescribe Inc.", "Application Support QA Lead", "Oakland, CA", "11-26-2010"),
        ("Ingenuity Corporation", "Business Analyst", "Boston, MA", "12-6-2010"),
        ("Acme Holdings LLC", "Systems Engineer", "San Francisco, CA", "11-23-2010"),
        ("Northwind Group", "Data Architect", "Austin, TX", "12-1-2010")]
JOB_FIELDS = [FieldRequest("company", "the company that posted the job"),
              FieldRequest("location", "the working location of the job")]


def forge(requests: list[FieldRequest], pages: list[str]) -> tuple[CompiledSpec, list[dict]]:
    compiled = CompiledSpec(induce_heuristic(requests, [parse_html(p) for p in pages[:3]]))
    return compiled, [compiled.row(p) for p in pages]


def job_page(company: str, title: str, location: str, posted: str, labels: tuple[str, ...],
             reverse: bool = False) -> str:
    """A job posting's facts as a definition list, with the field's heading "Company Overview" on every page."""
    terms = [(f"<dt>{label}</dt>", f"<dd>{value}</dd>") for label, value in zip(
        labels, (title, company, posted, location), strict=True)]
    items = "".join(dd + dt for dt, dd in reversed(terms)) if reverse else "".join(dt + dd for dt, dd in terms)
    return (f"<html><head><title>{title} job</title></head><body><h1>{title}</h1><dl class='summary'>{items}</dl>"
            "<div class='company_overview'><h2>Company Overview</h2><p>find more jobs with this company</p></div>"
            "</body></html>")


def test_labels_in_words_nobody_foresaw_still_lead_to_values_of_a_telling_kind() -> None:
    opaque = ("Item 4039c0:", "Item d44dbc:", "Item 5e97b5:", "Item 881d4d:")
    _, rows = forge(JOB_FIELDS, [job_page(*job, labels=opaque) for job in JOBS])
    assert [row["company"] for row in rows] == [job[0] for job in JOBS]  # not the constant "Company Overview"
    assert [row["location"] for row in rows] == [job[2] for job in JOBS]


def test_a_label_that_asks_for_another_kind_is_left_to_that_kind() -> None:
    assert names_another_kind("Location", "organisation") and not names_another_kind("Item 881d4d", "location")
    assert telling_check("organisation")("Livescribe Inc.") and not telling_check("organisation")("Oakland, CA")
    assert telling_check("location")("Oakland, CA") and telling_check("category") is None


def test_a_definition_list_that_prints_each_value_before_its_label() -> None:
    words = ("Title:", "Company:", "Posted:", "Location:")
    _, rows = forge(JOB_FIELDS, [job_page(*job, labels=words, reverse=True) for job in JOBS])
    assert [row["company"] for row in rows] == [job[0] for job in JOBS]
    assert [row["location"] for row in rows] == [job[2] for job in JOBS]


CARS = [("2010 Audi A6", "3.0L 300 hp V6", "18", "26"), ("2010 Audi S5", "4.2L 354 hp V8", "14", "22"),
        ("2010 Audi S6", "5.2L 435 hp V10", "14", "19"), ("2011 Saab 9-3", "2.0L 210 hp I4", "20", "29")]


def car_page(model: str, engine: str, city: str, highway: str) -> str:
    """A spec sheet drawn bottom-up: each row's value cell first, each section's rows above its heading."""
    def section(title: str, rows: list[tuple[str, str]]) -> str:
        cells = "".join(f"<tr class='twhite'><td class='ttext'>{value}</td><td class='ttext'>{label}</td></tr>"
                        for label, value in reversed(rows))
        return f"{cells}<tr><td colspan='2'><h3>{title}</h3></td></tr>"

    return (f"<html><head><title>{model} Specs</title></head><body><h1>{model}</h1><table>"
            + section("Comfort", [("Sunroof", "Std."), ("Air Conditioning", "Std.")])
            + section("Fuel Economy", [("City (mpg)", city), ("Highway (mpg)", highway)])
            + section("Engines", [("Standard Engine", engine), ("Transmission", "6-Speed Automatic")])
            + "</table></body></html>")


def test_rows_that_print_the_value_first_and_sections_drawn_above_their_heading() -> None:
    requests = [FieldRequest("engine", "the engine of the auto"),
                FieldRequest("fuel_economy", "the fuel efficiency of the auto")]
    compiled, rows = forge(requests, [car_page(*car) for car in CARS])
    assert [row["engine"] for row in rows] == [car[1] for car in CARS]
    assert [sorted(row["fuel_economy"]) for row in rows] == [sorted(car[2:]) for car in CARS]  # the unseen page too
    assert "preceding" in compiled.spec.field("fuel_economy").actions[0]


def film_page(title: str, genres: list[str], language: str) -> str:
    links = "".join(f"<a href='/genre/{g}'>{g}</a>" for g in reversed(genres))
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1><div class='txt-block'>"
            f"<a href='/language'>{language}</a><h4>Language:</h4>{links}<h4>Genres:</h4></div></body></html>")


def test_several_values_printed_before_their_label_are_all_read_and_no_other_labels() -> None:
    films = [("Pulp Fiction", ["Crime", "Thriller"], "English"), ("Se7en", ["Crime", "Drama", "Mystery"], "English"),
             ("The Empire Strikes Back", ["Action", "Adventure"], "English"), ("Amelie", ["Comedy"], "French")]
    _, rows = forge([FieldRequest("genre", "the genres of the movie")], [film_page(*film) for film in films])
    assert [sorted(row["genre"]) for row in rows] == [sorted(film[1]) for film in films]


def school_page(name: str, email: str, site: str) -> str:
    return (f"<html><head><title>{name}</title></head><body><h1>{name}</h1><div class='contact'>"
            f"<span class='c1'><span>{email}</span></span> <span class='c2'><span>{site}</span></span></div>"
            "</body></html>")


def test_an_email_address_is_no_website() -> None:
    assert is_url("http://www.acu.edu") and is_url("acu.edu") and not is_url("info@admissions.acu.edu")
    schools = [("Abilene Christian University", "info@admissions.acu.edu", "http://www.acu.edu"),
               ("Adelphi University", "admissions@adelphi.edu", "http://www.adelphi.edu"),
               ("Adrian College", "admissions@adrian.edu", "http://www.adrian.edu"),
               ("Agnes Scott College", "admission@agnesscott.edu", "http://www.agnesscott.edu")]
    _, rows = forge([FieldRequest("website", "the website of the university")],
                    [school_page(*school) for school in schools])
    assert [row["website"] for row in rows] == [school[2] for school in schools]


def test_a_class_a_template_puts_on_every_wrapper_is_no_anchor() -> None:
    cells = "".join(f"<td><span class='w-25dbe5'>cell {i}</span></td>" for i in range(25))
    root = parse_html(f"<html><body><table><tr>{cells}</tr></table><div class='buying'><span><span class='w-25dbe5'>"
                      "<a href='/a'>Stieg Larsson</a> (Author)</span></span></div></body></html>")
    link = next(e for e in root.iter("a") if isinstance(e, etree._Element))
    paths = anchored_path(link)
    assert "//div[@class='buying']/span/span/a" in paths
    assert not any(p.startswith("//span[@class='w-25dbe5']") for p in paths)


def price_page(model: str, price: str, promo: str = "") -> str:
    return (f"<html><head><title>{model}</title></head><body><h1>{model}</h1>{promo}<table id='snap'><tr>"
            f"<td class='value'><b>{price}</b></td></tr></table></body></html>")


def test_of_paths_that_read_alike_on_the_seeds_a_value_found_by_its_look_keeps_its_anchor() -> None:
    pages = [price_page("2010 Audi A6", "$53,310"), price_page("2010 Audi S5", "$52,400"),
             price_page("2010 Audi S6", "$76,100"), price_page("2011 Saab 9-3", "$29,900", "<p><b>New!</b></p>")]
    compiled, rows = forge([FieldRequest("cost", "the cost of the auto")], pages)
    assert [row["cost"] for row in rows] == ["$53,310", "$52,400", "$76,100", "$29,900"]
    assert compiled.spec.field("cost").actions[0] != "//b"


def test_the_same_texts_on_every_record_are_furniture_however_many_times_each_prints_them() -> None:
    books = [("The Girl Who Kicked the Hornet's Nest", "Stieg Larsson", 3), ("Arguing with Idiots", "Glenn Beck", 1),
             ("The Girl Who Played with Fire", "Reg Keeland", 2)]
    pages = [parse_html(f"<html><head><title>{title}</title></head><body><h1>{title}</h1><div class='by'>"
                        f"<a href='/a'>{author}</a> (Author)</div>"
                        + "".join("<p><span class='avail'><b>FREE Super Saver Shipping</b></span></p>" for _ in range(n))
                        + "</body></html>") for title, author, n in books]
    ranked = rank_candidates(concept_for("author", "the author of the book"), pages)
    assert all(s.score == 0 or s.values[0] != ["FREE Super Saver Shipping"] * 3 for s in ranked)
    assert ranked[0].values == [[book[1]] for book in books]
