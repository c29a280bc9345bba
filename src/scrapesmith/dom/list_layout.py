"""What a candidate list looks like on the rendered page: the layout half of list evidence.

From the boxes of a rendered page (:class:`~scrapesmith.dom.layout.PageLayout`) each candidate list gets
measurements a person would read at a glance, the same on any page and at the one fixed viewport:

* ``shown_share`` — how many of its items are drawn at all (a closed dropdown, a hidden dialog are not);
* ``area_share`` — how much of the page its items cover, and ``first_screen_share`` how much of it lies
  on the first screen;
* ``height_spread``, ``width_spread`` — how alike its item boxes are in size (coefficient of variation);
* ``aligned_share`` — how many neighbouring items line up (same left edge: a column; same top: a row);
* ``centre_offset`` — how far the list's middle is from the page's centre line (0 centred, 1 at an edge);
* ``font_ratio`` — the size of its item text against the page's usual text size;
* ``lines_per_item`` — how tall an item is, in lines of the page's usual text;
* ``image_share`` — how many of its items show a picture of at least :data:`PICTURE` pixels a side;
* ``item_width``, ``item_height`` — the size of its typical drawn item (median box), so two lists whose
  items are drawn the same size can be told (:func:`same_item_box`).

Items that the renderer did not keep (markup its parser dropped) are left out of every measure; a list
none of whose items was measured has no layout evidence (:func:`measure_layout` returns ``None``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from lxml import etree

from scrapesmith.dom.layout import Box, PageLayout
from scrapesmith.dom.lists import RecordRegion, own_text

PICTURE = 40.0  # a picture, not an icon: at least this many CSS pixels wide and high
ALIGNED = 2.0  # two edges closer than this many pixels line up
NEGLIGIBLE = 0.05  # a list covering less than this share of the main list's area is small beside it
ITEM_BOX_ALIKE = 0.15  # two typical item boxes this close in width and in height (relative) are the same size
DRAWN = 0.5  # a list with at least this share of its items drawn is on the page, not tucked away


@dataclass(frozen=True)
class LayoutEvidence:
    """The layout measurements of one candidate list (see the module docstring)."""

    shown_share: float
    area_share: float
    first_screen_share: float
    height_spread: float
    width_spread: float
    aligned_share: float
    centre_offset: float
    font_ratio: float
    lines_per_item: float
    image_share: float
    item_width: float = 0.0
    item_height: float = 0.0

    @property
    def drawn(self) -> bool:
        """At least :data:`DRAWN` of its items are drawn (a closed dropdown, a hidden dialog are not)."""
        return self.shown_share >= DRAWN and self.item_width > 0 and self.item_height > 0


class PageTypography:
    """The page's usual text size: the median font size over its characters of visible text."""

    def __init__(self, root: etree._Element, layout: PageLayout) -> None:
        weighted: list[tuple[float, int]] = []
        for element, box in layout.boxes.items():
            if box.visible and box.font_size > 0:
                chars = len(own_text(element))
                if chars:
                    weighted.append((box.font_size, chars))
        self.body_font = _weighted_median(weighted) if weighted else 16.0


def record_box(region: RecordRegion, index: int, layout: PageLayout) -> Box | None:
    """The box around record ``index`` (its item and companions), or ``None`` if none of them was measured."""
    boxes = [box for box in (layout.box(element) for element in region.record(index)) if box is not None]
    if not boxes:
        return None
    shown = [box for box in boxes if box.visible] or boxes
    left, top = min(box.x for box in shown), min(box.y for box in shown)
    right, bottom = max(box.right for box in shown), max(box.bottom for box in shown)
    return Box(left, top, right - left, bottom - top, shown[0].font_size, any(box.visible for box in boxes))


def measure_layout(
    region: RecordRegion, layout: PageLayout, typography: PageTypography
) -> LayoutEvidence | None:
    """The layout evidence of ``region`` on ``layout``'s page, or ``None`` when none of its items was drawn."""
    boxes = [box for box in (record_box(region, k, layout) for k in range(region.size)) if box is not None]
    if not boxes:
        return None
    shown = [box for box in boxes if box.visible]
    page_area = max(layout.width * layout.height, 1.0)
    screen_bottom = float(layout.viewport[1])
    if not shown:
        return LayoutEvidence(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0)
    area = sum(box.area for box in shown)
    on_screen = sum(box.width * max(min(box.bottom, screen_bottom) - box.y, 0.0) for box in shown)
    left, right = min(box.x for box in shown), max(box.right for box in shown)
    centre = (left + right) / 2
    half = max(layout.width / 2, 1.0)
    return LayoutEvidence(
        shown_share=len(shown) / len(boxes),
        area_share=min(area / page_area, 1.0),
        first_screen_share=on_screen / area if area else 0.0,
        height_spread=_spread([box.height for box in shown]),
        width_spread=_spread([box.width for box in shown]),
        aligned_share=_aligned_share(shown),
        centre_offset=min(abs(centre - half) / half, 1.0),
        font_ratio=_font_ratio(region, layout, typography),
        lines_per_item=statistics.fmean(box.height for box in shown) / (typography.body_font * 1.2),
        image_share=sum(1 for k in range(region.size) if _shows_picture(region, k, layout)) / region.size,
        item_width=statistics.median(box.width for box in shown),
        item_height=statistics.median(box.height for box in shown),
    )


def negligible_beside(candidate: LayoutEvidence | None, main: LayoutEvidence | None) -> bool:
    """``candidate``'s items cover less than :data:`NEGLIGIBLE` of the area the main list's items cover
    (what a glance at the page shows: a strip of links beside a page of cards). ``False`` when either
    was not measured, or the main list covers nothing (then size says nothing)."""
    if candidate is None or main is None or main.area_share <= 0:
        return False
    return candidate.area_share < NEGLIGIBLE * main.area_share


def same_item_box(candidate: LayoutEvidence | None, other: LayoutEvidence | None) -> bool:
    """Both lists are drawn and their typical items are the same size (width and height each within
    :data:`ITEM_BOX_ALIKE` of the other's): what the eye reads as more of the same records. ``False``
    when either was not measured."""
    if candidate is None or other is None or not (candidate.drawn and other.drawn):
        return False
    width, height = other.item_width, other.item_height
    return (
        abs(candidate.item_width - width) <= ITEM_BOX_ALIKE * width
        and abs(candidate.item_height - height) <= ITEM_BOX_ALIKE * height
    )


def _spread(values: Sequence[float]) -> float:
    mean = statistics.fmean(values)
    return min(statistics.pstdev(values) / mean, 3.0) if mean > 0 and len(values) > 1 else 0.0


def _aligned_share(boxes: Sequence[Box]) -> float:
    if len(boxes) < 2:
        return 1.0
    pairs = list(pairwise(boxes))
    lined = sum(1 for a, b in pairs if abs(a.x - b.x) <= ALIGNED or abs(a.y - b.y) <= ALIGNED)
    return lined / len(pairs)


def _font_ratio(region: RecordRegion, layout: PageLayout, typography: PageTypography) -> float:
    weighted = []
    for item in region.items:
        for element in item.iter(etree.Element):
            box = layout.box(element)
            chars = len(own_text(element))
            if box is not None and box.visible and chars and box.font_size > 0:
                weighted.append((box.font_size, chars))
    return _weighted_median(weighted) / typography.body_font if weighted else 1.0


def _shows_picture(region: RecordRegion, index: int, layout: PageLayout) -> bool:
    for element in region.record(index):
        for image in element.iter("img", "svg", "picture", "video", "canvas"):
            box = layout.box(image)
            if box is not None and box.visible and box.width >= PICTURE and box.height >= PICTURE:
                return True
    return False


def _weighted_median(pairs: list[tuple[float, int]]) -> float:
    pairs = sorted(pairs)
    half = sum(weight for _, weight in pairs) / 2
    running = 0
    for value, weight in pairs:
        running += weight
        if running >= half:
            return value
    return pairs[-1][0] if pairs else math.nan
