"""Labels a template draws as icons: the element that says "Company:" or "Cuisine" shows no text and carries
the label in an ``aria-label`` or ``title``; and values drawn across inline elements (issue 28, round 5). Three seed pages of one site and a fourth,
unseen page check each forged spec; the rules under test read the label wherever the page says it.
"""

from __future__ import annotations

from lxml import html

from scrapesmith.dom import parse_html
from scrapesmith.dom.mutate import labels_as_icons, mutate_page
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.candidates import icon_label
from scrapesmith.induce.heuristic import induce_heuristic

PLACES = [("Glacier BrewHouse", "American", "737 W 5th Ave", "Anchorage"),
          ("Trattoria Roma", "Italian", "12 Via Nova", "Boston"),
          ("Sushi Kaito", "Japanese", "4 Harbor Rd", "Seattle"),
          ("Casa Lupe", "Mexican", "88 Mission St", "Austin")]


def rows_of(pages: list[str], *requests: FieldRequest) -> list[dict]:
    compiled = CompiledSpec(induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]]))
    return [compiled.row(p) for p in pages]


def place_page(name: str, cuisine: str, street: str, city: str, attribute: str) -> str:
    """A restaurant's facts in a table whose label cells hold only an icon, and a definition list likewise."""
    return (f"<html><head><title>{name} - Guide</title></head><body><h1>{name}</h1><table>"
            f"<tr><td><i class='icon' {attribute}='Cuisine'></i></td><td>{cuisine}</td></tr>"
            f"<tr><td><i class='icon' {attribute}='Price range'></i></td><td>$$</td></tr></table>"
            f"<dl><dt {attribute}='Street:'></dt><dd>{street}</dd><dt {attribute}='City:'></dt><dd>{city}</dd></dl>"
            "</body></html>")


def test_a_label_said_only_by_an_icons_attribute_leads_to_its_value() -> None:
    for attribute in ("aria-label", "title"):
        pages = [place_page(*place, attribute=attribute) for place in PLACES]
        rows = rows_of(pages, FieldRequest("cuisine", "the cuisine the restaurant serves"),
                       FieldRequest("city", "the city of the restaurant"))
        assert [row["cuisine"] for row in rows] == [[p[1]] for p in PLACES]  # a cuisine may be several
        assert [row["city"] for row in rows] == [p[3] for p in PLACES]


def test_a_label_icon_before_a_text_gives_the_text() -> None:
    pages = [(f"<html><head><title>{name}</title></head><body><h1>{name}</h1><p><span title='Street:'></span>"
              f" {street}</p><p><span title='Phone'></span> 555-0100</p></body></html>") for name, _, street, _ in PLACES]
    rows = rows_of(pages, FieldRequest("street", "the street address of the restaurant"))
    assert [row["street"] for row in rows] == [p[2] for p in PLACES]


def test_the_condition_finds_an_icon_inside_its_box() -> None:
    cell = html.fromstring("<td><span><i aria-label=\"Chef's pick\"></i></span></td>")
    assert icon_label(cell) == ("Chef's pick", "[span/i[@aria-label=\"Chef's pick\"]]")
    assert icon_label(html.fromstring("<td>Cuisine <i title='x'></i></td>")) is None  # shown text wins


def test_the_icons_mutation_moves_label_texts_into_an_attribute_and_leaves_values() -> None:
    page = "<html><body><dl><dt>Company:</dt><dd>Acme Inc.</dd></dl><p><b>Publisher:</b> Knopf</p></body></html>"
    mutated = html.fromstring(mutate_page(page, "icons", seed=1))
    assert [(e.tag, e.get("title"), e.text) for e in mutated.iter("dt", "b")] == [
        ("dt", "Company:", None), ("b", "Publisher:", None)]
    assert mutated.text_content().split() == ["Acme", "Inc.", "Knopf"]
    root = html.fromstring(page)
    labels_as_icons(root, 0)
    assert root.find(".//dt").get("aria-label") == "Company:"


def test_a_value_drawn_across_inline_elements_is_read_whole() -> None:
    phones = ["(512) 471-3434", "(617) 253-1000", "(650) 723-2300", "(212) 854-1754"]
    pages = [(f"<html><head><title>{name}</title></head><body><h1>{name}</h1><p>{street}</p>"
              f"<div><span class='value'>{phone.split()[0]} <span class='s1'>{phone.split()[1]}</span></span></div>"
              "</body></html>") for (name, _, street, _), phone in zip(PLACES, phones, strict=True)]
    rows = rows_of(pages, FieldRequest("phone", "the phone number of the restaurant"))
    assert [row["phone"] for row in rows] == phones


def test_the_split_mutation_keeps_what_a_reader_sees() -> None:
    page = ("<html><body><h1 class='t'>The Long Road <small>2006</small></h1><p><b>Publisher:</b> Adams Media</p>"
            "<p>(512) 471-3434</p></body></html>")
    drawn = [html.fromstring(mutate_page(page, "split", seed=s)) for s in range(4)]
    assert all(d.text_content() == html.fromstring(page).text_content() for d in drawn)
    assert any(len(d.findall(".//span")) >= 2 for d in drawn)  # some seed splits some texts
    assert all(d.find(".//b").text == "Publisher:" for d in drawn)  # a label stays whole


def test_a_label_and_its_value_inside_one_box_are_not_one_split_value() -> None:
    sites = ["http://www.acu.edu", "http://www.adelphi.edu", "http://www.adrian.edu", "http://www.agnesscott.edu"]
    pages = [(f"<html><head><title>{name}</title></head><body><h1>{name}</h1>"
              f"<div><span class='url'>Item 6e89f2:<span>{site}</span></span></div></body></html>")
             for (name, *_), site in zip(PLACES, sites, strict=True)]
    rows = rows_of(pages, FieldRequest("website", "the website of the school"))
    assert [row["website"] for row in rows] == sites
