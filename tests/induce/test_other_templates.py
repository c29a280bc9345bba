"""One site's fields on another template: the same records drawn with the markup other sites use.

The project is scored on sites it never saw, whose templates differ from the development sites' in markup
(wrappers around labels and headings, ...). Each fragment repeats on three seed pages and a fourth, unseen
page; the rules under test read labels, value kinds and structure, never the records.
"""

from __future__ import annotations

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.heuristic import induce_heuristic

BOOKS = [
    {"title": "The Road", "year": "2006", "publisher": "Knopf", "isbn": "9780307265432"},
    {"title": "Blood Meridian", "year": "1985", "publisher": "Random House", "isbn": "9780394541136"},
    {"title": "Suttree", "year": "1979", "publisher": "Vintage", "isbn": "9780679736325"},
    {"title": "No Country for Old Men", "year": "2005", "publisher": "Picador", "isbn": "9780375706677"},
]


def wrapped_book_page(book: dict) -> str:
    """A template that wraps every heading's and label's content in a ``<span>``."""
    return (f"<html><head><title>{book['title']} ({book['year']}) - Books</title></head><body>"
            f"<div class=\"product\"><h1><span class=\"w1\">{book['title']} <small>({book['year']})</small></span></h1>"
            f"<p><b><span class=\"w2\">Publisher:</span></b> {book['publisher']}</p>"
            f"<p><strong><span class=\"w3\">ISBN-13</span></strong> {book['isbn']}</p></div></body></html>")


def test_wrappers_around_a_heading_and_its_labels_do_not_hide_the_values() -> None:
    pages = [wrapped_book_page(b) for b in BOOKS]
    requests = [FieldRequest("title", "the title of the book"), FieldRequest("publisher", "the publisher of the book"),
                FieldRequest("isbn_13", "the isbn number of the book")]
    compiled = CompiledSpec(induce_heuristic(requests, [parse_html(p) for p in pages[:3]]))
    rows = [compiled.row(p) for p in pages]
    assert [r["title"] for r in rows] == [b["title"] for b in BOOKS]
    assert [r["publisher"] for r in rows] == [b["publisher"] for b in BOOKS]
    assert [r["isbn_13"] for r in rows] == [b["isbn"] for b in BOOKS]
