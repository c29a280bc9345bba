"""A value the template cuts in two with inline markup (issue 28, round 7): a street number printed as text
after its label and the street in a ``<span>`` (``Address: 2477 <span>Arctic Blvd.…</span>``), a title's first
word as the heading's own text and the rest in a ``<span>``. No element holds the value alone; the text node
joined with the inline element it runs into does. Fragments cut from real restaurant and book pages, drawn
as a template that splits values does; three seeds forge the spec and a fourth, unseen page checks it.
"""

from __future__ import annotations

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.candidates import page_title
from scrapesmith.induce.execute import folded
from scrapesmith.induce.heuristic import HeadlineAnchor, induce_heuristic
from scrapesmith.induce.joined import cut_short, leading_text

ADDRESSES = [("Arctic Roadrunner", "2477", "Arctic Blvd., Downtown, Anchorage, AK, 99503", "907/279-7311"),
             ("Bombay Deluxe", "555", "W. Northern Lights Blvd., Midtown, Anchorage, AK, 99503", "907/277-1200"),
             ("Double Musky Inn", "Crow", "Creek Rd., Girdwood, AK, 99587", "907/783-2822"),
             ("Glacier BrewHouse", "737", "W. 5th Ave., Downtown, Anchorage, AK, 99501", "907/274-2739")]
BOOKS = [("The", "Overton Window", "Glenn Beck"), ("Game", "Over", "Karin Slaughter"),
         ("The", "Short Second Life of Bree Tanner", "Stephenie Meyer"), ("Night", "Myst", "Yasmine Galenorn")]


def rows_of(pages: list[str], *requests: FieldRequest) -> list[dict]:
    compiled = CompiledSpec(induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]]))
    return [compiled.row(p) for p in pages]


def place_page(name: str, number: str, street: str, phone: str) -> str:
    """The restaurant's address box as the real page draws it, the address's words after the first in a span."""
    return (f"<html><head><title>{name} Review - Guide</title></head><body><h2>{name}</h2>"
            f"<div id='entity-address'><ul><li><span>Address:</span> {number} <span class='s-3746'>{street} | "
            f"</span><a href='#'>Map It</a></li><li><span>Phone:</span> {phone}</li></ul></div></body></html>")


def test_an_address_whose_number_and_street_are_drawn_apart_is_read_whole() -> None:
    pages = [place_page(*place) for place in ADDRESSES]
    rows = rows_of(pages, FieldRequest("address", "the street address of the restaurant"))
    assert [row["address"] for row in rows] == [f"{number} {street}" for _, number, street, _ in ADDRESSES]


def book_page(first: str, rest: str, author: str, extra: str = "") -> str:
    """A book's heading with its first word as the heading's own text and the rest in a span, then the
    binding in a span of another class; the page title holds the whole title."""
    heading = f"{first} <span class='s-8716'>{rest}</span>" if rest else first
    return (f"<html><head><title>{first} {rest} by {author} (Hardcover) - Books</title></head><body>"
            f"<div class='details'><h2>{heading}<span class='subtitle'> (Hardcover)</span></h2>"
            f"<h3>by <a href='/author'>{author}</a></h3>{extra}</div></body></html>")


def test_a_title_whose_first_word_is_the_headings_own_text_is_read_whole() -> None:
    pages = [book_page(*book) for book in BOOKS]
    rows = rows_of(pages, FieldRequest("title", "the title of the book"))
    assert [row["title"] for row in rows] == [f"{first} {rest}" for first, rest, _ in BOOKS]


def test_an_element_of_another_kind_after_a_whole_value_stays_out_of_it() -> None:
    pages = [book_page(*book) for book in BOOKS[:3]] + [book_page("Twilight", "", "Stephenie Meyer")]
    rows = rows_of(pages, FieldRequest("title", "the title of the book"))
    assert rows[-1]["title"] == "Twilight"


def test_a_note_in_brackets_after_the_heading_text_is_no_part_of_the_name() -> None:
    films = [("Pulp Fiction", "1994"), ("Se7en", "1995"), ("Memento", "2000"), ("Inception", "2010")]
    pages = [f"<html><head><title>{name} ({year}) - Films</title></head><body><h1 class='header'>{name} "
             f"<span>(<a href='/year/{year}/'>{year}</a>)</span></h1><p>Directed by Someone</p></body></html>"
             for name, year in films]
    rows = rows_of(pages, FieldRequest("title", "the title of the film"))
    assert [row["title"] for row in rows] == [name for name, _ in films]


def test_only_an_end_or_a_title_held_start_is_a_cut_value() -> None:
    whole = [["2477 Arctic Blvd."], ["555 W. Northern Lights Blvd."]]
    assert cut_short([["Arctic Blvd."], ["W. Northern Lights Blvd."]], whole)
    assert not cut_short([["2477"], ["555"]], whole)  # a first half only where the page titles hold the whole
    assert cut_short([["2477"], ["555"]], whole, ["2477 arctic blvd. - map", "555 w. northern lights blvd."])
    assert not cut_short(whole, whole)  # the same values: nothing was cut


def related_page(first: str, rest: str, author: str) -> str:
    """A book page whose record names its author by a link alone and whose list of related books prints "by"
    before each of their authors, the authors' names cut by inline markup as the title's is; a later heading
    starts as the page title does ("Shop")."""
    related = "".join(f"<li><a href='/b{i}'>Book {i}</a> by <span class='s-1'>{name}</span></li>"
                      for i, name in enumerate(["Scott Turow", "Vince Flynn", "Kathryn Stockett"]))
    return (f"<html><head><title>Shop: {first} {rest}: {author}: Books</title></head><body>"
            f"<div class='buying'><h1><span id='t'>{first} <span class='s-1'>{rest}</span><span>[Hardcover]</span>"
            f"</span></h1>"
            f"<span><a href='/e/{author.split()[-1]}'>{author}</a> (Author)</span></div>"
            f"<h3>Shop <span class='s-1'>Review</span></h3><h3>Customers also bought</h3><ul>{related}</ul></body></html>")


def test_a_bare_text_label_printed_before_every_related_item_is_not_the_records() -> None:
    pages = [related_page(*book) for book in BOOKS]
    rows = rows_of(pages, FieldRequest("author", "the author(s) of the book"))
    assert [row["author"] for row in rows] == [[author] for _, _, author in BOOKS]


def test_a_heading_cut_by_inline_markup_still_marks_where_the_record_is() -> None:
    root = parse_html(related_page(*BOOKS[0]))
    anchor = HeadlineAnchor.of(root, folded(page_title(root)))
    assert anchor.heading is not None and anchor.heading.tag == "h1"
    assert leading_text(anchor.heading) == "The Overton Window"
