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
