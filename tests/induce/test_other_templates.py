"""One site's fields on another template: the same records drawn with the markup other sites use.

The project is scored on sites it never saw, whose templates differ from the development sites' in markup
(wrappers around labels and headings, ...). Each fragment repeats on three seed pages and a fourth, unseen
page; the rules under test read labels, value kinds and structure, never the records.
"""

from __future__ import annotations

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import induce_heuristic

BOOKS = [
    {"title": "The Road", "year": "2006", "publisher": "Knopf", "isbn": "9780307265432"},
    {"title": "Blood Meridian", "year": "1985", "publisher": "Random House", "isbn": "9780394541136"},
    {"title": "Suttree", "year": "1979", "publisher": "Vintage", "isbn": "9780679736325"},
    {"title": "No Country for Old Men", "year": "2005", "publisher": "Picador", "isbn": "9780375706677"},
]


def rows_of(pages: list[str], *requests: FieldRequest) -> list[dict]:
    """Induce on the first three pages; the rows of all four (the fourth unseen)."""
    compiled = CompiledSpec(induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]]))
    return [compiled.row(p) for p in pages]


def wrapped_book_page(book: dict) -> str:
    """A template that wraps every heading's and label's content in a ``<span>``."""
    return (f"<html><head><title>{book['title']} ({book['year']}) - Books</title></head><body>"
            f"<div class=\"product\"><h1><span class=\"w1\">{book['title']} <small>({book['year']})</small></span></h1>"
            f"<p><b><span class=\"w2\">Publisher:</span></b> {book['publisher']}</p>"
            f"<p><strong><span class=\"w3\">ISBN-13</span></strong> {book['isbn']}</p></div></body></html>")


def test_wrappers_around_a_heading_and_its_labels_do_not_hide_the_values() -> None:
    rows = rows_of([wrapped_book_page(b) for b in BOOKS], FieldRequest("title", "the title of the book"),
                   FieldRequest("publisher", "the publisher of the book"),
                   FieldRequest("isbn_13", "the isbn number of the book"))
    assert [r["title"] for r in rows] == [b["title"] for b in BOOKS]
    assert [r["publisher"] for r in rows] == [b["publisher"] for b in BOOKS]
    assert [r["isbn_13"] for r in rows] == [b["isbn"] for b in BOOKS]


def unmarked_title_page(book: dict) -> str:
    """A template whose headline is a bare ``<span>`` with an opaque id: no heading tag, no telling class."""
    return (f"<html><head><title>{book['title']}: A Novel - Shop</title></head><body><div id=\"c-19af\">"
            f"<a href=\"/\">Shop</a><div id=\"c-77e2\"><span id=\"i-08bc\">{book['title']}</span> "
            f"<span>Paperback</span></div><p>Publisher: {book['publisher']}</p></div></body></html>")


def test_a_headline_in_an_unmarked_element_is_found_where_the_title_begins_with_it() -> None:
    rows = rows_of([unmarked_title_page(b) for b in BOOKS], FieldRequest("title", "the title of the book"))
    assert [r["title"] for r in rows] == [b["title"] for b in BOOKS]


FILMS = [("Heat", ["Michael Mann"], ["Michael Mann"]), ("Fargo", ["Joel Coen", "Ethan Coen"], ["Ethan Coen"]),
         ("Alien", ["Ridley Scott"], ["Dan O'Bannon"]), ("Ran", ["Akira Kurosawa"], ["Hideo Oguni"])]


def credits_page(film: tuple[str, list[str], list[str]]) -> str:
    """Credits whose labels are "<verb> by" phrases, the writers before the directors."""
    title, directors, writers = film
    people = lambda names: ", ".join(f"<a href=\"/p/{n}\">{n}</a>" for n in names)
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<div><span>Written by</span> {people(writers)}</div>"
            f"<div><span>Directed by</span> {people(directors)}</div></body></html>")


def test_a_verb_by_label_names_one_role_only() -> None:
    rows = rows_of([credits_page(f) for f in FILMS], FieldRequest("director", "the director of the movie"))
    assert [r["director"] for r in rows] == [f[1] for f in FILMS]
    director, author = concept_for("director", "the director of the movie"), concept_for("author", "the author")
    assert "directed by" in director.labels and "written by" not in director.labels
    assert "written by" in author.labels and "directed by" not in author.labels
