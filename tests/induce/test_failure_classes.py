"""The failure classes of issue 28, one small fragment each, shaped like the real pages they were seen on.

Each fragment repeats on three seed pages with different records, as induction sees a site, and a fourth
page (unseen) checks the spec. The records are films, restaurants, players and books; the rules under test
name none of them: they read labels, value kinds, what varies across the seeds and the page's regions.
"""

from __future__ import annotations

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.heuristic import induce_heuristic

FILMS = [
    {"title": "Pulp Fiction", "year": "1994", "directors": ["Quentin Tarantino"], "genres": ["Crime", "Thriller"],
     "rating": "Rated R for strong graphic violence.", "stars": "9.0"},
    {"title": "Se7en", "year": "1995", "directors": ["David Fincher"], "genres": ["Crime", "Mystery", "Thriller"],
     "rating": "Rated R for grisly afterviews of killings.", "stars": "8.7"},
    {"title": "Star Wars", "year": "1977", "directors": ["George Lucas"], "genres": ["Action", "Adventure"],
     "rating": "Rated PG for sci-fi action violence.", "stars": "8.8"},
    {"title": "Sin City", "year": "2005", "directors": ["Frank Miller", "Robert Rodriguez"],
     "genres": ["Crime", "Thriller"], "rating": "Rated R for sustained strong stylized violence.", "stars": "8.3"},
]


def film_page(film: dict) -> str:
    people = ", ".join(f'<a href="/name/{i}/">{d}</a>' for i, d in enumerate(film["directors"]))
    label = "Directors:" if len(film["directors"]) > 1 else "Director:"
    more = ' <a href="fullcredits#directors">and 1 more credit</a> »' if len(film["directors"]) > 1 else ""
    genres = " <span>|</span> ".join(f'<a href="/genre/{g}">{g}</a>' for g in film["genres"])
    return (f"<html><head><title>{film['title']} ({film['year']}) - Films</title></head><body><div id=\"main\">"
            f"<h1 class=\"header\"> {film['title']} <span>(<a href=\"/year/{film['year']}/\">{film['year']}</a>)"
            f"</span></h1><div class=\"star-box\"><span class=\"rating-rating\">{film['stars']}/10</span></div>"
            f"<div class=\"txt-block\"><h4 class=\"inline\">{label}</h4> {people}{more}</div>"
            f"<div class=\"see-more\"><h4 class=\"inline\">Genres:</h4> {genres}</div>"
            f"<div class=\"txt-block\"><h4>Motion Picture Rating (<a href=\"/mpaa\">MPAA</a>)</h4> {film['rating']}"
            " <span class=\"see-more\"><a href=\"parentalguide\">See all certifications</a> »</span></div>"
            "</div></body></html>")


def induce_rows(pages: list[str], *requests: FieldRequest) -> tuple[CompiledSpec, list[dict]]:
    """Induce on the first three pages; return the scraper and its rows on all of them."""
    compiled = CompiledSpec(induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]]))
    return compiled, [compiled.row(p) for p in pages]


def test_the_main_heading_without_its_parenthesised_year() -> None:
    _, rows = induce_rows([film_page(f) for f in FILMS], FieldRequest("title", "the title of the movie"))
    assert [row["title"] for row in rows] == [f["title"] for f in FILMS]


def test_several_values_after_a_label_that_turns_plural_and_no_more_link() -> None:
    compiled, rows = induce_rows([film_page(f) for f in FILMS], FieldRequest("director", "the director of the movie"),
                                 FieldRequest("genre", "the genre of the movie"))
    assert [row["director"] for row in rows] == [f["directors"] for f in FILMS]  # "Directors:" on the unseen page
    assert [row["genre"] for row in rows] == [f["genres"] for f in FILMS]
    assert compiled.spec.field("genre").post.multiple


def test_a_label_that_holds_the_fields_words_in_a_longer_phrase() -> None:
    _, rows = induce_rows([film_page(f) for f in FILMS], FieldRequest("mpaa_rating", "the MPAA rating of the movie"))
    assert [row["mpaa_rating"] for row in rows] == [f["rating"] for f in FILMS]  # not the star rating


RESTAURANTS = [("Arctic Roadrunner", "American"), ("Bombay Deluxe Restaurant", "Indian"),
               ("Double Musky Inn", "Southern"), ("Glacier BrewHouse", "American")]


def restaurant_page(index: int) -> str:
    name, cuisine = RESTAURANTS[index]
    return ("<html><head><base href=\"http://guide.example/city/review-1580{index}.html\"/>"
            f"<title>{name} Review | City | Guide</title></head><body>"
            f"<div id=\"breadcrumb\"><a href=\"/\">Home</a> <a href=\"/city/\">City</a> {name}</div>"
            f"<div id=\"destinationname\"><h1>{name} Review</h1><h2>Read our city reviews.</h2></div>"
            f"<div id=\"entity\"><ul><li><span>Cuisine:</span> <a href=\"restaurants-cuisine:{index}.html\">"
            f"{cuisine}</a></li><li><span>Location:</span> <a href=\"restaurants-loc:{index}.html\">Downtown</a>"
            "</li></ul><span class=\"ratings-cat\">Food:</span> <span class=\"ratings-value\">4.0</span></div>"
            "</body></html>").replace("{index}", str(index))


def test_constant_text_around_the_value_is_template() -> None:
    pages = [restaurant_page(i) for i in range(4)]
    compiled, rows = induce_rows(pages, FieldRequest("name", "the restaurant's name"),
                                 FieldRequest("cuisine", "the cuisine that the restaurant offers"))
    assert [row["name"] for row in rows] == [name for name, _ in RESTAURANTS]
    assert compiled.spec.field("name").post.regex  # " Review" is cut by the spec: replay needs no model
    assert [row["cuisine"] for row in rows] == [[cuisine] for _, cuisine in RESTAURANTS]  # a link beside links


UNIVERSITIES = ["Abilene Christian University", "Adelphi University", "Agnes Scott University", "Albion University"]


def test_constant_words_the_field_is_described_by_stay_in_the_value() -> None:
    pages = [f"<html><head><title>{n} - Colleges</title></head><body><div id=\"crumbs\">{n.split()[0]}</div>"
             f"<h1>{n}</h1></body></html>" for n in UNIVERSITIES]
    _, rows = induce_rows(pages, FieldRequest("name", "the name of the university"))
    assert [row["name"] for row in rows] == UNIVERSITIES


BOOKS = [("Knopf; First Edition", "Knopf", "May 25, 2010", ["Stieg Larsson"], ["Reg Keeland"]),
         ("Vintage", "Vintage", "June 23, 2009", ["Stieg Larsson"], []),
         ("Simon & Schuster Audio; Unabridged edition", "Simon & Schuster Audio", "June 15, 2010", ["Glenn Beck"],
          ["James Daniels"]),
         ("Subterranean", "Subterranean", "March 15, 2007", ["Naomi Novik"], ["Dominic Harman"])]


def book_page(index: int) -> str:
    printed, _, date, authors, others = BOOKS[index]
    byline = ", ".join([f'<a href="/a/{a}">{a}</a> (Author)' for a in authors]
                       + [f'<a href="/o/{o}">{o}</a> (Illustrator)' for o in others])
    other_edition = ('<div class="popover" style="display:none;"><div class="entry">Publisher: Other House</div>'
                     '<div class="entry">Published: July 15, 2008</div></div>')
    return (f"<html><head><title>Book {index}</title></head><body><div class=\"buying\"><h1>Book {index}</h1>"
            f"<span> {byline} </span></div>{other_edition}<h2>Product Details</h2><ul>"
            f"<li><b>Publisher:</b> {printed} ({date})</li><li><b>Language:</b> English</li></ul></body></html>")


def test_one_printed_text_stays_one_value_and_hidden_blocks_are_not_the_record() -> None:
    """"Knopf; First Edition (May 25, 2010)" is one text node: the value as the page prints it, for the publisher
    and the date alike, its label aside (no guess at which part a field means); the hidden popover's "Publisher:
    Other House" is no part of the record."""
    pages = [book_page(i) for i in range(4)]
    compiled, rows = induce_rows(pages, FieldRequest("publisher", "the publisher of the book"),
                                 FieldRequest("publication_date", "the publication date of the book"))
    printed = [f"{b[0]} ({b[2]})" for b in BOOKS]
    assert [row["publisher"] for row in rows] == printed
    assert [row["publication_date"] for row in rows] == printed
    assert not compiled.spec.field("publisher").post.regex


def test_only_the_values_whose_role_is_the_field() -> None:
    _, rows = induce_rows([book_page(i) for i in range(4)], FieldRequest("author", "the author of the book"))
    assert [row["author"] for row in rows] == [b[3] for b in BOOKS]  # the illustrator is no author


PLAYERS = [("Ray Allen", "20", "SG"), ("Avery Bradley", "0", "SG"), ("Marquis Daniels", "8", "SG"),
           ("Glen Davis", "11", "PF")]


def test_the_main_heading_varies_across_records() -> None:
    pages = [f"<html><head><title>{n} Stats, News - Boston Celtics</title></head><body>"
             f"<div class=\"team-info\"><h2>Boston Celtics</h2></div>"
             f"<div class=\"name\">{n} #{number} {position}</div></body></html>" for n, number, position in PLAYERS]
    _, rows = induce_rows(pages, FieldRequest("name", "the name of the player"))
    assert [row["name"] for row in rows] == [f"{n} #{number} {position}" for n, number, position in PLAYERS]


def test_a_value_whose_own_label_names_a_distractor_loses() -> None:
    prices = [("$129.00", "$50.99"), ("$369.00", "$30.00"), ("$151.95", "$78.00"), ("$99.50", "$10.49")]
    pages = [f"<html><head><title>Camera {i}</title></head><body><h1>Camera {i}</h1><table>"
             f"<tr><td>You Save:</td><td class=\"price\">{saved}</td></tr>"
             f"<tr><td>Deal of the day:</td><td><b class=\"priceLarge\">{price}</b></td></tr></table></body></html>"
             for i, (price, saved) in enumerate(prices)]
    _, rows = induce_rows(pages, FieldRequest("price", "the sale price of the camera"))
    assert [row["price"] for row in rows] == [price for price, _ in prices]
