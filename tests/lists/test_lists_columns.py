"""Columns mapped to item parts by name and by the kind of value (lists/columns.py)."""

from __future__ import annotations

from scrapesmith.dom.parse import parse_html
from scrapesmith.lists.columns import column_kind, content_type, locate

CARD = parse_html(
    '<html><body><div class="card"><h3><a href="/p/1">Walnut Desk</a></h3><b>Ann Lee</b>'
    '<span>$249.00</span><time>2024-05-02</time><span>anne@example.org</span><span>42</span>'
    "<p>Solid wood, hand finished.</p></div></body></html>"
).find(".//div")


def text_of(column: str) -> str:
    match = locate(column, CARD)
    return "" if match is None else " ".join(match.element.itertext())


def test_a_thing_s_name_is_its_heading_a_person_s_name_is_emphasised() -> None:
    assert text_of("Product Name") == "Walnut Desk"
    assert text_of("Customer Name") == "Ann Lee"


def test_parts_carry_the_kind_of_value_a_column_name_implies() -> None:
    kinds = {content_type(node) for node in CARD.iter() if node.text and node.text.strip()}
    assert {"link", "price", "date", "email", "number", "text"} <= kinds
    assert [column_kind(c) for c in ("Job URL", "Posted", "Salary", "Contact Email", "Title")] == [
        "url", "date", "price", "email", "title"
    ]


def test_a_part_marked_as_a_heading_is_the_title_when_the_link_wraps_the_card() -> None:
    """No <h1>-<h6>: a class naming a heading (or role="heading") marks the title, not the whole card
    the link wraps; a badge or the address beside it is not the title."""
    item = parse_html(
        '<div><a href="/61"><div class="styles_badge">Top rated plants</div>'
        '<p class="typography-heading-xs">Green Acres Nursery</p><p class="subtle">www.greenacres.example</p>'
        '<p><span>Plant health</span>4.5 | 1,876 comments</p></a></div>'
    ).find(".//body/div")
    match = locate("title", item)
    assert match is not None and match.element.text_content() == "Green Acres Nursery"
    named = locate("Company Name", item)
    assert named is not None and named.element.text_content() == "Green Acres Nursery"
    aria = parse_html('<div><a href="/1"><span>New</span><span role="heading">Blue chair</span><span>$40</span></a></div>')
    assert locate("title", aria.find(".//body/div")).element.text_content() == "Blue chair"


def test_without_a_heading_the_title_is_still_the_main_link() -> None:
    item = parse_html('<li><a href="/x">A plain link title</a><span>2024</span></li>').find(".//li")
    match = locate("title", item)
    assert match is not None and match.element.tag == "a"


def test_a_bare_name_column_takes_emphasis_first_then_the_heading() -> None:
    card = parse_html(
        '<div><a href="/61"><div class="badge">Top rated</div><p class="heading-xs">Green Acres Nursery</p>'
        '<p>www.greenacres.example</p></a></div>'
    ).find(".//body/div")
    assert locate("Name", card).element.text_content() == "Green Acres Nursery"
    person = parse_html('<li><h3>Great service</h3><b>Ada Lovelace</b><p>Five stars.</p></li>').find(".//li")
    assert locate("Name", person).element.text_content() == "Ada Lovelace"  # a person's name is emphasised
