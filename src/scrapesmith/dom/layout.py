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
