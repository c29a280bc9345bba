"""A rendered layout as plain data (dom/layout.py ``layout_record``): tied back to a fresh parse of the same
page box for box, and refused for a page of another shape or an older form."""

from __future__ import annotations

from lxml import etree

from scrapesmith.dom import Box, PageLayout, layout_from_record, layout_record, parse_html

PAGE = b"<html><body><ul><li>One</li><li style='display:none'>Two</li></ul><p>After</p></body></html>"


def measured(root: etree._Element) -> PageLayout:
    boxes = {
        element: Box(
            8.0, 10.0 * index, 1264.0, 18.0, 16.0, "display:none" not in (element.get("style") or "")
        )
        for index, element in enumerate(root.iter(etree.Element))
    }
    return PageLayout(boxes=boxes, width=1280.0, height=900.0, seconds=0.4, note="rendered at 1280x800")


def test_a_stored_layout_ties_back_to_a_fresh_parse_of_the_same_page() -> None:
    first = parse_html(PAGE)
    record = layout_record(measured(first), first)
    second = parse_html(PAGE)
    read = layout_from_record(record, second)
    assert read is not None and read.rendered
    assert [read.box(element) for element in second.iter(etree.Element)] == [
        measured(first).box(element) for element in first.iter(etree.Element)
    ]
    hidden = second.xpath("//li")[1]
    assert read.box(hidden) is not None and not read.box(hidden).visible
    assert (read.width, read.height, read.seconds, read.note) == (1280.0, 900.0, 0.4, "rendered at 1280x800")


def test_a_layout_of_another_page_shape_or_form_is_not_used() -> None:
    root = parse_html(PAGE)
    record = layout_record(measured(root), root)
    assert layout_from_record(record, parse_html(b"<html><body><p>Other</p></body></html>")) is None
    assert layout_from_record({**record, "version": 0}, root) is None
