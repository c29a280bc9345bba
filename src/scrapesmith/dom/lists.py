"""Repeating-record detection: find the lists a page is made of, without a model.

A list on a web page is a run of sibling subtrees built from the same template (job cards, table rows,
blog teasers). :func:`find_record_regions` finds every such run: for each element it groups the children
by tag and by the similarity of their tag-path fingerprints, keeps groups of at least ``min_items``
text-bearing members, and gives each a structural score (how many members, how rich in text, outside site
chrome). This is the candidate generator of the BardeenAgent recorder and of the NEXT-EVAL detector;
:mod:`scrapesmith.dom.list_evidence` ranks the candidates by the evidence that they hold data records
(an LLM, when present, chooses among the close ones).

It also finds pagination controls (``rel=next``, "Next"/"›"/"»", numbered pages, ``?page=``), and the
least common ancestor of chosen items, which the paper uses to turn example items into a list selector.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlparse

from lxml import etree

from scrapesmith.dom.parse import is_parsable_url, safe_urljoin

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


@dataclass
class PaginationControl:
    """How to reach the next page: a URL found in the page, and the element it came from (if any)."""

    url: str
    kind: str
    element: etree._Element | None = field(default=None, repr=False)


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


NEXT_WORDS = re.compile(
    r"^\W*(next|more|older|load more|show more|suivant|weiter)\b[\w\s]{0,20}\W*$|^\s*[›»>→]+\s*$",
    re.IGNORECASE,
)
PREVIOUS_WORDS = re.compile(r"(prev|previous|newer|‹|«|←|back)", re.IGNORECASE)
PAGE_PARAM = re.compile(r"^(page|p|pg|paged|pagenum|page_num|offset|start)$", re.IGNORECASE)


def element_text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def find_pagination(root: etree._Element, page_url: str) -> PaginationControl | None:
    """The link to the next page, by the strongest evidence first: rel=next, "Next" words, page numbers."""
    for finder in (_rel_next, _next_words, _numbered_next):
        found = finder(root, page_url)
        if found is not None and _same_site(found.url, page_url) and _strip_fragment(found.url) != page_url:
            return found
    return None


FIRST_WORDS = re.compile(r"^\W*(first|first page|1)\W*$", re.IGNORECASE)


def find_first_page(root: etree._Element, page_url: str) -> str | None:
    """On page N > 1 of a paginated listing, the URL of page 1 (a "1" or "First" link), else ``None``.

    Search hits and links often land in the middle of a listing; collecting from there would miss the
    pages before it.
    """
    if (page_number(page_url) or 1) <= 1:
        return None
    for element in root.iter("a"):
        url = _href(element, page_url)
        if url and _same_site(url, page_url) and FIRST_WORDS.match(_link_label(element)) \
                and (page_number(url) or 1) == 1 and _strip_fragment(url) != page_url:
            return url
    return None


def _strip_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def _same_site(url: str, page_url: str) -> bool:
    return urlparse(url).netloc in ("", urlparse(page_url).netloc)


def _href(element: etree._Element, page_url: str) -> str | None:
    href = (element.get("href") or "").strip()
    if not href or href.startswith(("javascript:", "mailto:", "#")):
        return None
    url = safe_urljoin(page_url, href)
    return url if is_parsable_url(url) else None


def _rel_next(root: etree._Element, page_url: str) -> PaginationControl | None:
    for element in root.iter("a", "link"):
        if "next" in (element.get("rel") or "").lower().split():
            url = _href(element, page_url)
            if url:
                return PaginationControl(
                    url=url, kind="rel-next", element=element if element.tag == "a" else None
                )
    return None


def _link_label(element: etree._Element) -> str:
    return element_text(element) or element.get("aria-label") or element.get("title") or ""


def _next_words(root: etree._Element, page_url: str) -> PaginationControl | None:
    for element in root.iter("a"):
        label = _link_label(element)
        if label and NEXT_WORDS.match(label) and not PREVIOUS_WORDS.search(label):
            url = _href(element, page_url)
            if url:
                return PaginationControl(url=url, kind="next-link", element=element)
    return None


def page_number(url: str) -> int | None:
    """The page number a URL asks for (``?page=3``, ``/page/3/``, ``/blog/3/``), if it says."""
    parsed = urlparse(url)
    for key, value in parse_qsl(parsed.query):
        if PAGE_PARAM.match(key) and value.isdigit():
            return int(value)
    match = re.search(r"/(?:page/)?(\d{1,3})/?$", parsed.path)
    return int(match.group(1)) if match else None


def _numbered_next(root: etree._Element, page_url: str) -> PaginationControl | None:
    current = page_number(page_url) or 1
    for element in root.iter("a"):
        label = element_text(element)
        url = _href(element, page_url)
        if url and label.isdigit() and int(label) == current + 1 and page_number(url) == current + 1:
            return PaginationControl(url=url, kind="page-number", element=element)
    return None
