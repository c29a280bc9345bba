"""Evidence that a repeating region is a list of data records, not page furniture, and the ranking by it.

:func:`scrapesmith.dom.lists.find_record_regions` proposes every run of similar siblings; most of them
are menus, filter facets, form fields, footers or paragraphs of prose. Each candidate is described by
measurements that mean the same on any page: how many items and how alike they are, how much text they
carry and what share of the page's text that is, how much of it is link text, whether the region sits
in site chrome (header/nav/footer/aside), in a form or in the main content, whether its items each hold
a list of their own, carry headings, images or digits, where it starts on the page, how many look-alike
regions it has — and how it compares with the page's strongest candidate. :func:`data_list_probability`
weighs them with a logistic model whose weights were fitted on the NEXT-EVAL development pages
(:mod:`scrapesmith.bench.nexteval_fit`, ``scrapesmith bench nexteval --fit``) and are kept here as
constants: detection needs no model and no training at run time.

The likeliest candidate is the page's main list; which of the others hold records too is decided in
:mod:`scrapesmith.dom.list_selection`. With a rendered page (:class:`~scrapesmith.dom.layout.PageLayout`),
every candidate also carries what it looks like there (:mod:`scrapesmith.dom.list_layout`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from lxml import etree

from scrapesmith.dom.layout import PageLayout
from scrapesmith.dom.list_layout import LayoutEvidence, PageTypography, measure_layout
from scrapesmith.dom.lists import (
    RecordRegion,
    element_text,
    find_record_regions,
    fingerprint,
    similarity,
)

FORM_TAGS = frozenset({"input", "select", "textarea", "button", "label", "option", "fieldset"})
CHROME_TAGS = frozenset({"nav", "header", "footer", "aside", "menu", "dialog"})
CHROME_ROLES = frozenset(
    {"navigation", "menu", "menubar", "banner", "contentinfo", "complementary", "tablist"}
)
CHROME_WORDS = re.compile(
    r"(^|[\s_-])(nav|navbar|navigation|menu|megamenu|submenu|footer|header|breadcrumbs?|dropdown|modal"
    r"|cookie|consent|sidebar|filters?|facets?|pagination|pager|social|share|tabs?)s?($|[\s_-])",
    re.IGNORECASE,
)
MAIN_WORDS = re.compile(
    r"(^|[\s_-])(main|content|results?|listings?|products?|items?|feed|grid)($|[\s_-])", re.IGNORECASE
)
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
IMAGES = frozenset({"img", "picture"})
SKIPPED = frozenset({"script", "style", "noscript", "template"})
DIGIT = re.compile(r"\d")
COUNTED_LABEL = re.compile(  # a facet: "France (6729)", "Accounting [35 jobs]", "Sleep 35"
    r"^\W*[^\d()\[\]]{1,40}?\s*([(\[]\s*\d[\d,.]*\s*\w{0,12}\s*[)\]]|\s\d[\d,.]*)\W*$"
)
SHORT_LABEL = 30
PREVIEW_ITEMS = 3
PREVIEW_CHARS = 160


@dataclass
class RegionEvidence:
    """Measurements of one candidate list; the ``relative_*`` ones compare it with the page's best."""

    items: int
    text_nodes_per_item: float
    chars_per_item: float
    text_share: float
    link_share: float
    similarity: float
    in_chrome: bool
    in_form: bool
    in_main: bool
    holds_lists: float
    position: float
    distinct_share: float
    digit_share: float
    length_spread: float
    structure_score: float
    heading_share: float
    image_share: float
    look_alikes: int
    item_tag: str
    counted_label_share: float
    in_chrome_element: bool
    relative_structure: float = 0.0
    relative_text_share: float = 0.0
    relative_items: float = 0.0
    layout: LayoutEvidence | None = None

    def features(self) -> list[float]:
        """The model's inputs, in :data:`FEATURES` order (logs tame counts spanning orders of magnitude)."""
        return [
            math.log(self.items),
            math.log1p(self.text_nodes_per_item),
            math.log1p(self.chars_per_item),
            math.sqrt(self.text_share),
            self.link_share,
            self.similarity,
            float(self.in_chrome),
            float(self.in_form),
            float(self.in_main),
            self.holds_lists,
            self.position,
            self.distinct_share,
            self.digit_share,
            self.length_spread,
            float(self.text_nodes_per_item < 1.5),
            math.log1p(self.structure_score),
            self.relative_structure,
            self.relative_text_share,
            self.heading_share,
            self.image_share,
            math.log1p(self.look_alikes),
            float(self.item_tag == "tr"),
            float(self.item_tag == "p"),
            float(self.item_tag == "li"),
            float(self.item_tag == "a"),
            float(self.item_tag in FORM_TAGS),
            self.relative_items,
            self.counted_label_share,
            float(self.in_chrome_element),
        ]


FEATURES = (
    "log_items",
    "log_text_nodes_per_item",
    "log_chars_per_item",
    "sqrt_text_share",
    "link_share",
    "similarity",
    "in_chrome",
    "in_form",
    "in_main",
    "holds_lists",
    "position",
    "distinct_share",
    "digit_share",
    "length_spread",
    "single_text",
    "log_structure_score",
    "relative_structure",
    "relative_text_share",
    "heading_share",
    "image_share",
    "log_look_alikes",
    "rows",
    "paragraphs",
    "list_items",
    "links",
    "form_controls",
    "relative_items",
    "counted_label_share",
    "in_chrome_element",
)

# Fitted by scrapesmith.bench.nexteval_fit on NEXT-EVAL development pages 1-100 (see its docstring):
# feature -> (mean, scale) of its standardisation and its weight; then the intercept.
EVIDENCE_WEIGHTS: dict[str, tuple[float, float, float]] = {
    "log_items": (1.71219, 0.665028, -0.109822),
    "log_text_nodes_per_item": (0.921813, 0.564863, -0.361777),
    "log_chars_per_item": (2.85318, 1.07085, 0.318429),
    "sqrt_text_share": (0.0967785, 0.111024, 0.167551),
    "link_share": (0.534336, 0.471373, 0.667061),
    "similarity": (0.953514, 0.111543, 0.332917),
    "in_chrome": (0.677308, 0.467506, -0.221483),
    "in_form": (0.149087, 0.356174, 0.0648585),
    "in_main": (0.833964, 0.372113, 0.161113),
    "holds_lists": (0.0591919, 0.218762, -0.321718),
    "position": (0.425379, 0.29284, -0.181364),
    "distinct_share": (0.980248, 0.0908948, 0.0280247),
    "digit_share": (0.30912, 0.411046, 0.553632),
    "length_spread": (0.330686, 0.222402, -0.258362),
    "single_text": (0.790686, 0.406819, -0.12416),
    "log_structure_score": (0.98962, 1.29602, 0.0420758),
    "relative_structure": (-5.35851, 1.84718, 0.819099),
    "relative_text_share": (-0.561217, 0.207426, -0.184423),
    "heading_share": (0.0522824, 0.220978, 0.142148),
    "image_share": (0.0569191, 0.223502, 0.414739),
    "log_look_alikes": (2.5574, 1.77201, -0.465401),
    "rows": (0.0131644, 0.113978, 0.310426),
    "paragraphs": (0.0312654, 0.174034, -0.183726),
    "list_items": (0.375514, 0.484255, 0.257432),
    "links": (0.103011, 0.303974, -0.0663677),
    "form_controls": (0.0304427, 0.171802, 0.0147741),
    "relative_items": (-2.50342, 1.25051, 0.589474),
    "counted_label_share": (0.0198781, 0.123783, -0.186122),
    "in_chrome_element": (0.383907, 0.486336, -0.145323),
}
UNWEIGHTED = (0.0, 1.0, 0.0)  # a feature added since the last fit counts for nothing until refitted
INTERCEPT = -4.32199



class PageContext:
    """What every region of one page is measured against: its text, document order and candidate lists."""

    def __init__(self, root: etree._Element, regions: Sequence[RecordRegion]) -> None:
        self.start: dict[int, int] = {}
        total = 0
        for node in root.iter():
            if not isinstance(node.tag, str):
                continue
            self.start[id(node)] = total
            if node.tag not in SKIPPED:
                total += len((node.text or "").strip()) + len((node.tail or "").strip())
        self.total_chars = max(total, 1)
        self.list_parents = {id(region.parent) for region in regions}
        self.signatures: dict[tuple[str, ...], int] = {}
        for region in regions:
            key = signature(region)
            self.signatures[key] = self.signatures.get(key, 0) + 1


def signature(region: RecordRegion) -> tuple[str, ...]:
    """Item and container tag and class: regions sharing it were built from one template."""
    item, parent = region.items[0], region.parent
    return (str(item.tag), item.get("class") or "", str(parent.tag), parent.get("class") or "")


def measure(region: RecordRegion, page: PageContext) -> RegionEvidence:
    """The page-independent evidence for one candidate list (relative measures are set by the ranker)."""
    items = region.items
    texts = [_item_text(item) for item in items]
    chars = [sum(len(text) for text, _ in parts) for parts in texts]
    total = sum(chars)
    mean = total / len(items)
    spread = math.sqrt(sum((c - mean) ** 2 for c in chars) / len(chars)) / mean if mean else 0.0
    joined = ["".join(text for text, _ in parts) for parts in texts]
    prints = [fingerprint(item) for item in items]
    pairs = list(pairwise(prints))
    ancestors = [region.parent, *region.parent.iterancestors()]
    return RegionEvidence(
        items=len(items),
        text_nodes_per_item=sum(len(parts) for parts in texts) / len(items),
        chars_per_item=mean,
        text_share=min(total / page.total_chars, 1.0),
        link_share=sum(len(t) for parts in texts for t, linked in parts if linked) / total if total else 0.0,
        similarity=sum(similarity(a, b) for a, b in pairs) / len(pairs) if pairs else 1.0,
        in_chrome=any(_is_chrome(node) for node in ancestors),
        in_form=any(node.tag == "form" for node in ancestors) or _share(items, _has_controls) >= 0.5,
        in_main=any(_is_main(node) for node in ancestors),
        holds_lists=_share(items, lambda item: _holds_list(item, page)),
        position=page.start.get(id(items[0]), 0) / page.total_chars,
        distinct_share=len(set(joined)) / len(joined),
        digit_share=sum(1 for text in joined if DIGIT.search(text)) / len(joined),
        length_spread=min(spread, 3.0),
        structure_score=region.score,
        heading_share=_share(items, lambda item: _has(item, HEADINGS)),
        image_share=_share(items, lambda item: _has(item, IMAGES)),
        look_alikes=page.signatures.get(signature(region), 1) - 1,
        item_tag=str(items[0].tag),
        counted_label_share=sum(1 for text in joined if _counted_label(text)) / len(joined),
        in_chrome_element=any(_is_chrome_element(node) for node in ancestors),
    )


def data_list_probability(evidence: RegionEvidence) -> float:
    """How likely the evidence describes a list of data records (the fitted logistic model)."""
    logit = INTERCEPT + sum(
        weight * (value - mean) / scale
        for value, (mean, scale, weight) in zip(
            evidence.features(), (EVIDENCE_WEIGHTS.get(name, UNWEIGHTED) for name in FEATURES), strict=True
        )
    )
    return 1.0 / (1.0 + math.exp(-max(min(logit, 50.0), -50.0)))


@dataclass
class RankedList:
    """A candidate list with its evidence, the model's probability that it holds data, and a preview."""

    region: RecordRegion
    evidence: RegionEvidence
    probability: float

    def preview(self, items: int = PREVIEW_ITEMS, chars: int = PREVIEW_CHARS) -> list[str]:
        """The first records as text: enough for a person or a model to tell a list apart."""
        return [element_text(item)[:chars] for item in self.region.items[:items]]


def rank_lists(
    root: etree._Element, regions: Sequence[RecordRegion] | None = None, layout: PageLayout | None = None
) -> list[RankedList]:
    """Every candidate list of the page, most likely data list first; with a rendered ``layout``, each
    candidate also carries what it looks like on the page (:mod:`scrapesmith.dom.list_layout`)."""
    regions = list(find_record_regions(root) if regions is None else regions)
    if not regions:
        return []
    page = PageContext(root, regions)
    evidence = [measure(region, page) for region in regions]
    if layout is not None and layout.rendered:
        typography = PageTypography(root, layout)
        for region, measured in zip(regions, evidence, strict=True):
            measured.layout = measure_layout(region, layout, typography)
    best_structure = max(math.log1p(e.structure_score) for e in evidence)
    best_share = max(math.sqrt(e.text_share) for e in evidence)
    most_items = max(math.log(e.items) for e in evidence)
    for e in evidence:
        e.relative_structure = math.log1p(e.structure_score) - best_structure
        e.relative_text_share = math.sqrt(e.text_share) - best_share
        e.relative_items = math.log(e.items) - most_items
    ranked = [RankedList(r, e, data_list_probability(e)) for r, e in zip(regions, evidence, strict=True)]
    ranked.sort(key=lambda candidate: candidate.probability, reverse=True)
    return ranked


def _item_text(item: etree._Element) -> list[tuple[str, bool]]:
    """Each text run of ``item`` with whether a link holds it (scripts and styles left out)."""
    parts: list[tuple[str, bool]] = []
    stack: list[tuple[etree._Element, bool]] = [(item, item.tag == "a")]
    while stack:
        node, in_link = stack.pop()
        own = ((node.text or "") + "".join(child.tail or "" for child in node)).strip()
        if own:
            parts.append((own, in_link))
        for child in reversed(node):
            if isinstance(child.tag, str) and child.tag not in SKIPPED:
                stack.append((child, in_link or child.tag == "a"))
    return parts


def _names(node: etree._Element) -> str:
    return f"{node.get('id') or ''} {node.get('class') or ''}"


def _is_chrome(node: etree._Element) -> bool:
    return (
        node.tag in CHROME_TAGS
        or (node.get("role") or "") in CHROME_ROLES
        or bool(CHROME_WORDS.search(_names(node)))
    )


def _counted_label(text: str) -> bool:
    match = COUNTED_LABEL.match(text)
    return match is not None and ("(" in match.group(1) or "[" in match.group(1) or len(text) <= SHORT_LABEL)


def _is_chrome_element(node: etree._Element) -> bool:
    """Chrome by the markup's own word (a ``<nav>``/``<header>``/``<footer>``/``<aside>`` or its role)."""
    return node.tag in CHROME_TAGS or (node.get("role") or "") in CHROME_ROLES


def _is_main(node: etree._Element) -> bool:
    named_main = bool(MAIN_WORDS.search(_names(node)))
    return node.tag in ("main", "article") or node.get("role") == "main" or named_main


def _has_controls(item: etree._Element) -> bool:
    return _has(item, FORM_TAGS)


def _has(item: etree._Element, tags: frozenset[str]) -> bool:
    return any(isinstance(node.tag, str) and node.tag in tags for node in item.iter())


def _holds_list(item: etree._Element, page: PageContext) -> bool:
    return any(id(node) in page.list_parents for node in item.iter() if node is not item)


def _share(items: Sequence[etree._Element], test: Callable[[etree._Element], bool]) -> float:
    return sum(1 for item in items if test(item)) / len(items)
