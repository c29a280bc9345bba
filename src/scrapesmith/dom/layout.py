"""The rendered page as data: each element's box, font size and visibility, tied to the parsed tree.

A person tells a page's records from its furniture by how they look: a block of look-alike cards that
fills the page, a thin strip of one-line links, a hidden dropdown. The browser layer
(:mod:`scrapesmith.web.browser.layout`) renders a page once and measures every element; this module
holds what it measured, keyed by the elements of the lxml tree the rest of ``dom`` works on, so list
evidence can read boxes without knowing how they were taken. ``dom`` never imports ``web``: the data
flows down, the rendering stays above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

#: The box stamp the renderer puts on a copy of the tree (never on the tree the caller holds).
BOX_ATTRIBUTE = "data-ss-box"
VIEWPORT = (1280, 800)  # every page is measured at this size, so a threshold means the same on each


@dataclass(frozen=True)
class Box:
    """Where one element was drawn (page coordinates, CSS pixels), its font size, and whether it shows."""

    x: float
    y: float
    width: float
    height: float
    font_size: float
    visible: bool

    @property
    def area(self) -> float:
        return self.width * self.height if self.visible else 0.0

    @property
    def bottom(self) -> float:
        return self.y + self.height

    @property
    def right(self) -> float:
        return self.x + self.width


@dataclass
class PageLayout:
    """The boxes of one rendered page; an empty layout (``rendered`` false) says why it is missing.

    ``boxes`` maps the caller's own elements to their boxes; an element the browser did not keep (markup
    its parser dropped or moved) has none, and evidence treats it as not measured, never as invisible.
    """

    boxes: dict[etree._Element, Box] = field(default_factory=dict)
    width: float = float(VIEWPORT[0])
    height: float = float(VIEWPORT[1])
    viewport: tuple[int, int] = VIEWPORT
    seconds: float = 0.0
    note: str = ""

    @property
    def rendered(self) -> bool:
        return bool(self.boxes)

    def box(self, element: etree._Element) -> Box | None:
        return self.boxes.get(element)


def unrendered(reason: str) -> PageLayout:
    """The layout of a page that could not be rendered: DOM evidence alone decides, and ``note`` says why."""
    return PageLayout(note=f"not rendered ({reason}); DOM evidence only")


#: Bumped when the measured data or its form changes, so a stored layout from an older form is not read.
LAYOUT_RECORD_VERSION = 1


def layout_record(layout: PageLayout, root: etree._Element) -> dict[str, Any]:
    """``layout`` as plain data, each box keyed by its element's place in ``root``'s document order (the
    order the renderer stamps), so it can be stored and tied back to a fresh parse of the same page."""
    order = {element: index for index, element in enumerate(root.iter(etree.Element))}
    boxes = [
        [order[element], box.x, box.y, box.width, box.height, box.font_size, int(box.visible)]
        for element, box in layout.boxes.items()
        if element in order
    ]
    return {
        "version": LAYOUT_RECORD_VERSION,
        "elements": len(order),
        "width": layout.width,
        "height": layout.height,
        "viewport": list(layout.viewport),
        "seconds": layout.seconds,
        "note": layout.note,
        "boxes": boxes,
    }


def layout_from_record(record: dict[str, Any], root: etree._Element) -> PageLayout | None:
    """The layout :func:`layout_record` stored, tied to ``root``'s elements; ``None`` when it was stored in
    another form or for a tree with another number of elements (then the page is drawn again)."""
    elements = list(root.iter(etree.Element))
    if record.get("version") != LAYOUT_RECORD_VERSION or record.get("elements") != len(elements):
        return None
    boxes = {
        elements[index]: Box(x, y, width, height, font_size, bool(shown))
        for index, x, y, width, height, font_size, shown in record["boxes"]
        if 0 <= index < len(elements)
    }
    viewport = record.get("viewport") or VIEWPORT
    return PageLayout(
        boxes=boxes,
        width=float(record["width"]),
        height=float(record["height"]),
        viewport=(int(viewport[0]), int(viewport[1])),
        seconds=float(record.get("seconds") or 0.0),
        note=str(record.get("note") or ""),
    )
