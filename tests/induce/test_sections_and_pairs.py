"""Key/value pairs on any page, and a section heading as the label of the rows below it (issue 28, round 2).

Fragments shaped like real spec sheets and fact tables: three seed pages of one site with different
records, and a fourth (unseen) page that checks the spec. The rules under test read layout only (rows,
terms, colons, headings built alike); no field, site or attribute list is named by them.
"""

from __future__ import annotations

import json

import pytest

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper
from scrapesmith.induce.choose import choose_candidate, label_options
from scrapesmith.induce.execute import post_process, run_actions
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import induce_heuristic, rank_candidates
from scrapesmith.induce.kinds import label_unit, with_unit
from scrapesmith.induce.pairs import page_pairs, shared_pairs
from scrapesmith.induce.views import PostProcess
from scrapesmith.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.usefixtures("chooser_paths_open")  # the control flow with the model asked

CARS = [("2010 Audi A6", "3.0L 300 hp V6", "18", "26", "21", "30"),
        ("2010 Audi S5", "4.2L 354 hp V8", "14", "22", "18", "27"),
        ("2010 Audi S6", "5.2L 435 hp V10", "14", "19", "20", "31"),
        ("2011 Saab 9-3", "2.0L 210 hp I4", "20", "29", "15", "23")]


def section(title: str, trim: str, rows: list[tuple[str, str]]) -> str:
    """A heading row, a row naming the trim in another heading, then the section's label/value rows."""
    cells = "".join(f"<tr class='twhite'><td class='ttext'>{label}</td><td class='ttext'>{value}</td></tr>"
                    for label, value in rows)
    return (f"<tr><td colspan='2' class='theadtext'><h3>{title}</h3> <span>(<a href='#'>more</a>)</span></td></tr>"
            f"<tr class='tblue'><td class='tbtext'></td><td class='tbtext'><h3>{trim}</h3></td></tr>{cells}")


def car_page(model: str, engine: str, city: str, highway: str, rival_city: str, rival_highway: str) -> str:
    trim = f"{model.split()[-1]} quattro"
    return (f"<html><head><title>{model} Specs</title></head><body><h1 class='title'>{model}</h1>"
            "<table class='tblueborder'>"
            + section("Best in class", "Rival", [("City (mpg)", rival_city), ("Highway (mpg)", rival_highway)])
            + section("Engines &amp; Power", trim, [("Standard Engine", engine), ("Horsepower", "300 @ 5100 RPM")])
            + section("Fuel Economy", trim, [("City (mpg)", city), ("Highway (mpg)", highway)])
            + section("Comfort &amp; Convenience", trim, [("Sunroof", "Std."), ("Air Conditioning", "Std.")])
            + "</table></body></html>")


def test_a_section_heading_labels_the_rows_below_it_and_not_a_rivals_rows() -> None:
    pages = [car_page(*car) for car in CARS]
    requests = [FieldRequest("fuel_economy", "the fuel efficiency of the auto"),
                FieldRequest("engine", "the engine of the auto")]
    compiled = CompiledSpec(induce_heuristic(requests, [parse_html(p) for p in pages[:3]]))
    rows = [compiled.row(p) for p in pages]
    assert [row["fuel_economy"] for row in rows] == [[car[2], car[3]] for car in CARS]  # the unseen page too
    assert [row["engine"] for row in rows] == [car[1] for car in CARS]  # its own row label still wins
    field = compiled.spec.field("fuel_economy")
    assert field.post.multiple and "Fuel Economy" in field.actions[0] and field.evidence.startswith("section")


def test_a_wrapper_in_every_cell_does_not_make_the_rows_headings_look_like_section_headings() -> None:
    def wrapped(page: str) -> str:  # a template that wraps every cell's content in one span
        return page.replace("'theadtext'><h3>", "'theadtext'><span class='w'><h3>").replace(
            "(<a href='#'>more</a>)</span></td>", "(<a href='#'>more</a>)</span></span></td>").replace(
            "'tbtext'><h3>", "'tbtext'><span class='w'><h3>").replace("</h3></td></tr>", "</h3></span></td></tr>")
    pages = [wrapped(car_page(*car)) for car in CARS]
    compiled = CompiledSpec(induce_heuristic([FieldRequest("fuel_economy", "the fuel efficiency of the auto")],
                                             [parse_html(p) for p in pages[:3]]))
    assert [compiled.row(p)["fuel_economy"] for p in pages] == [[car[2], car[3]] for car in CARS]


def test_a_unit_in_the_label_makes_bare_numbers_measures() -> None:
    players = [("Kobe Bryant", "198", "96"), ("Pau Gasol", "213", "113"), ("Lamar Odom", "208", "104"),
               ("Derek Fisher", "185", "95")]
    pages = [f"<html><head><title>{name}</title></head><body><h1>{name}</h1><table><tr><th>Born</th>"
             f"<td>1978</td></tr><tr><th>Height (cm)</th><td>{height}</td></tr><tr><th>Weight (kg)</th>"
             f"<td>{weight}</td></tr></table></body></html>" for name, height, weight in players]
    compiled = CompiledSpec(induce_heuristic([FieldRequest("height", "the height of the player")],
                                             [parse_html(p) for p in pages[:3]]))
    assert [compiled.row(p)["height"] for p in pages] == [p[1] for p in players]
    assert label_unit("City (mpg)") == "mpg" and label_unit("Weight in kg:") == "kg" and label_unit("Born") is None
    assert with_unit("18", "mpg") == "18 mpg" and with_unit("Std.", "mpg") == "Std."


FACTS = ("<html><body><nav><dl><dt>Menu:</dt><dd>Home</dd></dl></nav><div id='main'><h1>{name}</h1>"
         "<table class='index'><tr><th>General Information</th><th></th></tr>"
         "<tr><td class='label'>Institutional Control: </td><td class='value'>{control}</td></tr>"
         "<tr><td class='label'><a href='/glossary'>Year founded</a>:</td><td class='value'>{year}</td></tr></table>"
         "<dl><dt>Setting:</dt><dd>{setting}</dd></dl><p><b>Phone:</b> {phone}</p><ul><li>Calendar: {calendar}</li>"
         "</ul></div></body></html>")
SCHOOLS = [{"name": "Adrian College", "control": "Private", "year": "1859", "setting": "rural",
            "phone": "(800) 877-2246", "calendar": "semester"},
           {"name": "Ohio State University", "control": "Public", "year": "1870", "setting": "urban",
            "phone": "(614) 292-3980", "calendar": "quarter"}]


def test_pairs_are_read_from_rows_terms_colons_and_texts_but_not_from_chrome() -> None:
    pages = [parse_html(FACTS.format(**school)) for school in SCHOOLS]
    pairs = page_pairs(pages[0])
    assert [p.label for p in pairs] == ["Institutional Control", "Year founded", "Setting", "Phone", "Calendar"]
    values = {p.label: post_process(run_actions(pages[0], [p.xpath]), PostProcess(regex=p.regex)) for p in pairs}
    assert values == {"Institutional Control": ["Private"], "Year founded": ["1859"], "Setting": ["rural"],
                      "Phone": ["(800) 877-2246"], "Calendar": ["semester"]}
    assert [p.label for p in shared_pairs(pages)] == [p.label for p in pairs]  # the template: on both pages


UNIVERSITY = ("<html><head><title>{name} | Colleges</title></head><body><div id='main'><h1>{name}</h1>"
              "<p class='adr'><span class='type'>Work</span> Box 1 <span class='type'>Work</span> {phone}</p>"
              "<table class='index'><tr><th>General Information</th><th></th></tr>"
              "<tr><td class='label'>Institutional Control: </td><td class='value'>{control}</td></tr>"
              "<tr><td class='label'>Year founded: </td><td class='value'>{year}</td></tr>"
              "<tr><td class='label'>Setting: </td><td class='value'>{setting}</td></tr></table></div></body></html>")


def university_pages() -> list[str]:
    return [UNIVERSITY.format(**school) for school in [*SCHOOLS, {**SCHOOLS[0], "name": "Alma College",
                                                                  "year": "1886", "control": "Private"},
                                                       {**SCHOOLS[1], "name": "Kent State University",
                                                        "year": "1910"}]]


def pick_label(label: str) -> ScriptedLLM:
    """A scripted model that copies the option line printed with ``label`` (control flow only)."""
    def answer(request) -> str:
        lines = [line[2:] for line in request.messages[-1].content.splitlines() if line.startswith("- ")]
        return json.dumps({"answer": next(line for line in lines if line.startswith(label + ":"))})
    return ScriptedLLM(answer)


def test_where_no_label_names_the_field_the_model_chooses_among_the_pages_pairs() -> None:
    pages = university_pages()
    seeds = [parse_html(p) for p in pages[:3]]
    llm = pick_label("Institutional Control")
    spec = induce_scraper([FieldRequest("type", "the type of the university")], seeds, method="choose", llm=llm)
    assert llm.calls == 1 and llm.requests[0].stage == "induce.choose"
    prompt = llm.requests[0].messages[-1].content
    assert "Institutional Control: Private | Public | Private" in prompt and "Setting: rural | urban | rural" in prompt
    assert "Work, Work" in prompt  # the evidence's own best candidate is an option too
    assert [CompiledSpec(spec).row(p)["type"] for p in pages] == ["Private", "Public", "Private", "Public"]


def test_pairs_of_another_kind_are_not_offered_and_a_bad_answer_keeps_the_evidence() -> None:
    seeds = [parse_html(p) for p in university_pages()[:3]]
    concept = concept_for("year", "the year the university opened")
    offered = [label for label, _ in label_options(concept, seeds, [])]
    assert offered == ["Year founded"]  # "Private" or "rural" is no date: never an option
    request = FieldRequest("type", "the type of the university")
    concept = concept_for(request.name, request.instruction)
    ranked = rank_candidates(concept, seeds)
    kept = choose_candidate(ScriptedLLM(lambda _: "no idea"), request, concept, ranked, seeds)
    assert kept.asked and "unusable" in kept.reason and kept.chosen is not None
    assert kept.chosen.values[0] == ["Work", "Work"]  # the heuristic's choice, not a pair the model never named


def test_a_pair_that_repeats_the_pages_own_title_is_never_offered_for_another_field() -> None:
    overview = "<tr><td class='label'>Overview: </td><td class='value'>{name}</td></tr>"
    pages = [p.replace("<tr><td class='label'>Institutional", overview.format(name=name) + "<tr><td class='label'>"
                       "Institutional") for p, name in zip(university_pages(), ["Adrian College", "Ohio State University",
                                                                                "Alma College", "Kent State University"],
                                                          strict=True)]
    seeds = [parse_html(p) for p in pages[:3]]
    assert "Overview" in [p.label for p in shared_pairs(seeds)]  # the page prints it as a pair
    offered = [label for label, _ in label_options(concept_for("type", "the type of the university"), seeds, [])]
    assert "Institutional Control" in offered and "Overview" not in offered  # it names the record, not its type
