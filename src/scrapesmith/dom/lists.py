"""Repeating-record detection: find the lists a page is made of, without a model.

A list on a web page is a run of sibling subtrees built from the same template (job cards, table rows,
blog teasers). :func:`find_record_regions` finds every such run: for each element it groups the children
by tag and by the similarity of their tag-path fingerprints, keeps groups of at least ``min_items``
text-bearing members, and gives each a structural score (how many members, how rich in text, outside site
chrome). This is the candidate generator of the BardeenAgent recorder and of the NEXT-EVAL detector;
:mod:`scrapesmith.dom.list_evidence` ranks the candidates by the evidence that they hold data records
(an LLM, when present, chooses among the close ones).

It also finds the least common ancestor of chosen items, which the paper uses to turn example items into a
list selector. Pagination controls are found by :mod:`scrapesmith.dom.pagination` (re-exported here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.dom.pagination import (
    NEXT_WORDS,
    PAGE_PARAM,
    PREVIOUS_WORDS,
    PaginationControl,
    find_first_page,
    find_pagination,
    page_number,
)
from scrapesmith.dom.selectors import element_text

__all__ = [
    "BOILERPLATE_PENALTY", "BOILERPLATE_TAGS", "BOILERPLATE_WORDS", "COMPANION_SHARE", "CONTAINER_SHARE",
    "FINGERPRINT_DEPTH", "IGNORED_TAGS", "LAYOUT_RICHNESS", "MIN_ITEMS", "NEXT_WORDS", "PAGE_PARAM",
    "PREVIOUS_WORDS", "RICHNESS_CAP", "RICHNESS_POWER", "SIMILARITY_THRESHOLD", "SINGLE_TEXT_RICHNESS",
    "PaginationControl", "RecordRegion", "class_tokens", "content_children", "element_text", "find_first_page",
    "find_pagination", "find_record_regions", "fingerprint", "group_similar", "in_boilerplate", "is_element",
    "is_inside", "least_common_ancestor", "nested_regions", "own_text", "page_number", "select_regions",
    "similarity", "text_bearing",
]

IGNORED_TAGS = frozenset({"script", "style", "noscript", "template", "link", "meta", "head", "svg", "path"})
FINGERPRINT_DEPTH = 3
SIMILARITY_THRESHOLD = 0.5
RICHNESS_CAP = 12.0
RICHNESS_POWER = 1.5
LAYOUT_RICHNESS = 60.0
SINGLE_TEXT_RICHNESS = 1.3
MIN_ITEMS = 3  # fewer look-alike siblings are not proposed as a list
CONTAINER_SHARE = 0.5
COMPANION_SHARE = 0.2  # a second row pairs with the first only if it holds this share of the first's text


@dataclass
class RecordRegion:
    """A run of similar sibling subtrees under ``parent``: one list, ``items`` in document order."""

    parent: etree._Element
    items: list[etree._Element]
    score: float = 0.0
    text_nodes: int = 0
    links: int = 0
    companions: list[list[etree._Element]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.items)

    def record(self, index: int) -> list[etree._Element]:
        """The elements of record ``index``: its item, plus the siblings that complete it (if any)."""
        return [self.items[index], *(self.companions[index] if self.companions else [])]


def is_element(node: object) -> bool:
    return isinstance(node, etree._Element) and isinstance(node.tag, str)


def content_children(element: etree._Element) -> list[etree._Element]:
    """Children that can hold visible content (no scripts, styles, comments or processing instructions)."""
    return [child for child in element if is_element(child) and child.tag not in IGNORED_TAGS]


def own_text(element: etree._Element) -> str:
    """Text that belongs directly to ``element``: its leading text and the tails of its children."""
    return ((element.text or "") + "".join(child.tail or "" for child in element)).strip()


def text_bearing(element: etree._Element) -> list[etree._Element]:
    """Elements at or under ``element`` that directly hold non-empty text (NEXT-EVAL's text-map keys)."""
    found = []
    stack = [element]
    while stack:
        node = stack.pop()
        if own_text(node):
            found.append(node)
        stack.extend(
            reversed([child for child in node if is_element(child) and child.tag not in IGNORED_TAGS])
        )
    return found


def fingerprint(element: etree._Element, depth: int = FINGERPRINT_DEPTH) -> frozenset[str]:
    """The set of tag paths below ``element`` (to ``depth`` levels): what a template leaves behind."""
    paths: set[str] = set()
    frontier = [(element, element.tag)]
    for _ in range(depth):
        next_frontier = []
        for node, path in frontier:
            for child in content_children(node):
                child_path = f"{path}/{child.tag}"
                paths.add(child_path)
                next_frontier.append((child, child_path))
        frontier = next_frontier
    paths.add(str(element.tag))
    return frozenset(paths)


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def class_tokens(element: etree._Element) -> frozenset[str]:
    return frozenset((element.get("class") or "").split())


def group_similar(children: Sequence[etree._Element]) -> list[list[etree._Element]]:
    """Cluster siblings: same tag, a shared class (or none at all), fingerprint like the first member's."""
    clusters: list[tuple[frozenset[str], list[etree._Element]]] = []
    for child in children:
        prints = fingerprint(child)
        classes = class_tokens(child)
        for representative, members in clusters:
            first = members[0]
            same_kind = first.tag == child.tag and (
                classes & class_tokens(first) or not (classes or class_tokens(first))
            )
            if same_kind and similarity(representative, prints) >= SIMILARITY_THRESHOLD:
                members.append(child)
                break
        else:
            clusters.append((prints, [child]))
    return [members for _, members in clusters]


BOILERPLATE_TAGS = frozenset(
    {"nav", "header", "footer", "aside", "form", "select", "datalist", "menu", "dialog"}
)
BOILERPLATE_WORDS = re.compile(
    r"(^|[\s_-])(nav|navbar|navigation|menu|megamenu|submenu|footer|breadcrumbs?|dropdown|modal|cookie)s?($|[\s_-])",
    re.IGNORECASE,
)
BOILERPLATE_PENALTY = 0.2


def in_boilerplate(element: etree._Element) -> bool:
    """Whether ``element`` sits in site chrome (menus, headers, footers, dropdowns) rather than content."""
    for node in _ancestors(element):
        if not is_element(node):
            continue
        if node.tag in BOILERPLATE_TAGS or "-menu" in node.tag or node.get("role") in ("navigation", "menu"):
            return True
        names = f"{node.get('id') or ''} {node.get('class') or ''}"
        if BOILERPLATE_WORDS.search(names):
            return True
    return False


def _region_from(
    parent: etree._Element, items: list[etree._Element], companions: list[list[etree._Element]] | None = None
) -> RecordRegion:
    """Score a candidate list: many members, each rich in text, outside site chrome.

    Companion elements (the second row of two-row records) are attached but not scored, so pairing
    never promotes a run above how it ranks on its own.
    """
    text_counts = [len(text_bearing(item)) for item in items]
    links = sum(1 for item in items if item.tag == "a" or item.find(".//a") is not None)
    region = RecordRegion(
        parent=parent, items=items, text_nodes=sum(text_counts), links=links, companions=companions or []
    )
    richness = sum(text_counts) / max(len(items), 1)
    region.score = len(items) * min(richness, RICHNESS_CAP) ** RICHNESS_POWER
    if in_boilerplate(parent):
        region.score *= BOILERPLATE_PENALTY
    if parent.tag in ("body", "html") or richness > LAYOUT_RICHNESS:
        region.score *= BOILERPLATE_PENALTY
    if richness < SINGLE_TEXT_RICHNESS:
        region.score *= BOILERPLATE_PENALTY
    return region


def find_record_regions(root: etree._Element, min_items: int = MIN_ITEMS) -> list[RecordRegion]:
    """Every run of >= ``min_items`` similar, text-bearing siblings, best first.

    Members without any text (placeholders, spacers) are dropped from a run before it is counted.
    """
    regions = []
    for parent in root.iter():
        if not is_element(parent) or parent.tag in IGNORED_TAGS:
            continue
        children = content_children(parent)
        if len(children) < min_items:
            continue
        groups = [[item for item in group if _has_text(item)] for group in group_similar(children)]
        groups = [group for group in groups if len(group) >= min_items]
        regions.extend(_regions_of(parent, children, groups))
    _penalize_containers(regions)
    regions.sort(key=lambda region: region.score, reverse=True)
    return regions


def _regions_of(
    parent: etree._Element, children: list[etree._Element], groups: list[list[etree._Element]]
) -> list[RecordRegion]:
    """One region per group; two groups that alternate one to one (a title row, then its details row)
    form a single region whose records span both elements, as MDR's generalised nodes do."""
    position = {id(child): index for index, child in enumerate(children)}
    paired: set[int] = set()
    regions = []
    for i, first in enumerate(groups):
        for j, second in enumerate(groups):
            if i == j or i in paired or j in paired or not _alternate(first, second, position):
                continue
            if _chars(second) < COMPANION_SHARE * _chars(first):
                continue  # a placeholder row after each record (a collapsed "Updating…"), not half of it
            region = _region_from(parent, first, companions=[[partner] for partner in second])
            regions.append(region)
            paired.update((i, j))
    regions.extend(_region_from(parent, group) for k, group in enumerate(groups) if k not in paired)
    return regions


def _alternate(first: list[etree._Element], second: list[etree._Element], position: dict[int, int]) -> bool:
    """``first[k]`` comes right before ``second[k]`` (spacers aside) for every record ``k``."""
    if len(first) != len(second):
        return False
    starts = [position[id(element)] for element in first] + [10**9]
    return all(
        starts[k] < position[id(partner)] < starts[k + 1] and position[id(partner)] - starts[k] <= 2
        for k, partner in enumerate(second)
    )


def _penalize_containers(regions: list[RecordRegion]) -> None:
    """Demote page sections: runs whose members mostly hold a substantial list of their own."""
    holders: dict[int, float] = {}
    for region in regions:
        for node in _ancestors(region.parent):
            holders[id(node)] = max(holders.get(id(node), 0.0), region.score)
    for region in regions:
        threshold = region.score * CONTAINER_SHARE / max(region.size, 1)
        nested = sum(1 for item in region.items if holders.get(id(item), 0.0) >= threshold)
        if nested >= region.size / 2:
            region.score *= BOILERPLATE_PENALTY


def _chars(elements: Sequence[etree._Element]) -> int:
    return sum(len(element_text(element)) for element in elements)


def _has_text(element: etree._Element) -> bool:
    return any(text.strip() for text in element.itertext()) and bool(text_bearing(element))


def _ancestors(element: etree._Element) -> list[etree._Element]:
    chain = []
    current = element
    while current is not None:
        chain.append(current)
        current = current.getparent()
    return chain


def is_inside(element: etree._Element, container: etree._Element) -> bool:
    return any(node is container for node in _ancestors(element))


def select_regions(regions: Iterable[RecordRegion], max_regions: int | None = None) -> list[RecordRegion]:
    """Keep the best regions that do not nest: a list inside an item of a better list is part of that item."""
    chosen: list[RecordRegion] = []
    for region in regions:
        if any(nested_regions(region, other) for other in chosen):
            continue
        chosen.append(region)
        if max_regions is not None and len(chosen) >= max_regions:
            break
    return chosen


def nested_regions(a: RecordRegion, b: RecordRegion) -> bool:
    """True when one region sits inside an item of the other (or they share items)."""
    if a.parent is b.parent:
        return True
    return any(is_inside(a.parent, item) for item in b.items) or any(
        is_inside(b.parent, item) for item in a.items
    )


def least_common_ancestor(elements: Sequence[etree._Element]) -> etree._Element | None:
    """The deepest element that contains every one of ``elements``."""
    if not elements:
        return None
    common = _ancestors(elements[0])[::-1]
    for element in elements[1:]:
        chain = _ancestors(element)[::-1]
        length = 0
        for mine, theirs in zip(common, chain):
            if mine is not theirs:
                break
            length += 1
        common = common[:length]
    return common[-1] if common else None
