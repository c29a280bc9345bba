"""Which of a page's candidate lists hold its records: the main list, then the others judged against it.

:func:`scrapesmith.dom.list_evidence.rank_lists` gives every candidate a probability of being a list of
data records on its own; the likeliest is the page's main list. Whether another list holds records too is
judged against it (:func:`secondary_probability`): the other record lists of a page tend to be built like
its main list (similar item templates, the same item tag, comparable text per item), while promo strips,
related-content carousels and link packs next to it are not. A second logistic model, fitted on the
NEXT-EVAL development pages like the first (``scrapesmith bench nexteval --fit``), weighs the candidate's
own probability with those comparisons.

When the page was rendered, one check that needs no fitting comes first
(:func:`~scrapesmith.dom.list_layout.negligible_beside`): another list whose items cover less than a
twentieth of the room the main list's items take on the page is furniture beside it — unless it is built
like the main list (template similarity :data:`TEMPLATE_ALIKE` or more), as the second page of a split
table or a short second grid of the same cards are. And one that adds (:func:`drawn_like_taken`): a list
left out that is at :data:`LIKE_TAKEN_FLOOR` or above on its own and whose items are drawn the same size
as the items of a list taken (:func:`~scrapesmith.dom.list_layout.same_item_box`) is taken too — more of
the same records, which the second model, reading the DOM alone, judged apart. Its two thresholds were
set before it was scored; it raised both held-out estimates on NEXT-EVAL (issue 34, BENCHMARKS.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from lxml import etree

from scrapesmith.dom.layout import PageLayout
from scrapesmith.dom.list_evidence import UNWEIGHTED, RankedList, rank_lists, signature
from scrapesmith.dom.list_layout import negligible_beside, same_item_box
from scrapesmith.dom.lists import (
    RecordRegion,
    fingerprint,
    least_common_ancestor,
    nested_regions,
    similarity,
)

DATA_LIST_THRESHOLD = 0.5
SECONDARY_FLOOR = 0.05  # lists less likely than this on their own are not compared with the main list
TEMPLATE_SAMPLE = 8  # items of each list whose templates are compared
TEMPLATE_ALIKE = 0.5  # a list at least this alike to the main list's template is never judged by size alone
LIKE_TAKEN_FLOOR = 0.2  # a list left out, this likely on its own and drawn like a list taken, is taken too

SECONDARY_FEATURES = (
    "logit_probability",
    "template_similarity",
    "same_item_tag",
    "same_template",
    "log_chars_ratio",
    "log_text_nodes_ratio",
    "log_items_ratio",
    "log_tree_distance",
    "position_after",
    "apart_below_body",
    "chrome_unlike_main",
    "chrome_element_unlike_main",
    "digit_share_difference",
)
# Fitted by scrapesmith.bench.nexteval_fit on the other candidates of NEXT-EVAL pages 1-100 (those at
# SECONDARY_FLOOR or above that do not overlap the page's likeliest list), in the same form as
# list_evidence.EVIDENCE_WEIGHTS: feature -> (mean, scale) of its standardisation and its weight.
SECONDARY_WEIGHTS: dict[str, tuple[float, float, float]] = {
    "logit_probability": (-1.47749, 1.55695, 0.938366),
    "template_similarity": (0.146878, 0.265049, 0.353478),
    "same_item_tag": (0.402196, 0.490341, -0.305489),
    "same_template": (0.0518962, 0.221817, 0.211283),
    "log_chars_ratio": (-1.12271, 1.36164, 0.101484),
    "log_text_nodes_ratio": (-0.786149, 0.859283, 0.0544545),
    "log_items_ratio": (-0.733897, 1.10004, 0.15868),
    "log_tree_distance": (2.62411, 0.548397, -0.00387089),
    "position_after": (-0.0297103, 0.378429, 0.163205),
    "apart_below_body": (0.207585, 0.405578, -0.235001),
    "chrome_unlike_main": (0.423154, 0.494059, -0.0243539),
    "chrome_element_unlike_main": (0.436128, 0.495904, -0.0150948),
    "digit_share_difference": (-0.474296, 0.528687, 0.385432),
}
SECONDARY_INTERCEPT = -1.37594


def overlapping(a: RecordRegion, b: RecordRegion) -> bool:
    """Two candidates that cannot both be taken: one sits inside an item of the other, or they are the
    same run. Two runs of different layouts under one container (a table's rows of two kinds, cards
    and wide cards in one grid) hold different records and may both be taken."""
    if a.parent is b.parent:
        return a is b or not {id(item) for item in a.items}.isdisjoint(id(item) for item in b.items)
    return nested_regions(a, b)


def detect_lists(
    root: etree._Element, threshold: float = DATA_LIST_THRESHOLD, layout: PageLayout | None = None
) -> list[RecordRegion]:
    """The page's data lists: the likeliest candidate, then every other one that does not nest in (or
    hold) one already taken and that, judged against the main list, is at ``threshold`` or above."""
    ranked = rank_lists(root, layout=layout)
    return [candidate.region for candidate in select_lists(ranked, threshold)]


Judge = Callable[[RankedList, RankedList], float]


def select_lists(
    ranked: Sequence[RankedList], threshold: float = DATA_LIST_THRESHOLD, judge: Judge | None = None
) -> list[RankedList]:
    """The first candidate (the main list), then the others that do not overlap it (see
    :func:`overlapping`), most likely first, while ``judge`` (by default :func:`secondary_probability`)
    puts them at ``threshold`` or above against the main list and they overlap none taken; on a rendered
    page, then the lists drawn like one taken (:func:`drawn_like_taken`)."""
    if not ranked:
        return []
    main = ranked[0]
    judge = judge or secondary_probability
    others = [
        (judge(candidate, main), candidate)
        for candidate in ranked[1:]
        if candidate.probability >= SECONDARY_FLOOR
        and not overlapping(candidate.region, main.region)
        and not furniture_beside(candidate, main)
    ]
    chosen = [main]
    for probability, candidate in sorted(others, key=lambda pair: pair[0], reverse=True):
        if probability < threshold:
            break
        if not any(overlapping(candidate.region, other.region) for other in chosen):
            chosen.append(candidate)
    return chosen + drawn_like_taken(ranked, chosen)


def drawn_like_taken(ranked: Sequence[RankedList], chosen: Sequence[RankedList]) -> list[RankedList]:
    """On a rendered page: the lists left out, at :data:`LIKE_TAKEN_FLOOR` or above, that overlap none
    taken and whose items are drawn the same size as those of a list in ``chosen`` (likeliest first).
    Without layout evidence, none."""
    added: list[RankedList] = []
    for candidate in ranked:
        if candidate.probability < LIKE_TAKEN_FLOOR or candidate.evidence.layout is None:
            continue
        if any(overlapping(candidate.region, other.region) for other in [*chosen, *added]):
            continue
        if any(same_item_box(candidate.evidence.layout, other.evidence.layout) for other in chosen):
            added.append(candidate)
    return added


def furniture_beside(candidate: RankedList, main: RankedList) -> bool:
    """On a rendered page: ``candidate`` takes a negligible share of the main list's room and is not built
    like it (see the module docstring). Without layout evidence, never."""
    if not negligible_beside(candidate.evidence.layout, main.evidence.layout):
        return False
    return template_similarity(candidate.region, main.region) < TEMPLATE_ALIKE


def secondary_features(candidate: RankedList, main: RankedList) -> list[float]:
    """How ``candidate`` compares with the page's main list, in :data:`SECONDARY_FEATURES` order."""
    region, anchor = candidate.region, main.region
    mine, theirs = candidate.evidence, main.evidence
    common = least_common_ancestor([region.parent, anchor.parent])
    distance = _depth(region.parent) + _depth(anchor.parent) - 2 * _depth(common) if common is not None else 0
    p = min(max(candidate.probability, 1e-6), 1 - 1e-6)
    return [
        math.log(p / (1 - p)),
        template_similarity(region, anchor),
        float(region.items[0].tag == anchor.items[0].tag),
        float(signature(region) == signature(anchor)),
        math.log((mine.chars_per_item + 1) / (theirs.chars_per_item + 1)),
        math.log((mine.text_nodes_per_item + 1) / (theirs.text_nodes_per_item + 1)),
        math.log(mine.items / theirs.items),
        math.log1p(distance),
        mine.position - theirs.position,
        float(common is None or common.tag in ("body", "html")),
        float(mine.in_chrome and not theirs.in_chrome),
        float(mine.in_chrome_element and not theirs.in_chrome_element),
        mine.digit_share - theirs.digit_share,
    ]


def secondary_probability(candidate: RankedList, main: RankedList) -> float:
    """How likely ``candidate`` holds data records too, given the page's main list (fitted model)."""
    logit = SECONDARY_INTERCEPT + sum(
        weight * (value - mean) / scale
        for value, (mean, scale, weight) in zip(
            secondary_features(candidate, main),
            (SECONDARY_WEIGHTS.get(name, UNWEIGHTED) for name in SECONDARY_FEATURES),
            strict=True,
        )
    )
    return 1.0 / (1.0 + math.exp(-max(min(logit, 50.0), -50.0)))


def template_similarity(region: RecordRegion, anchor: RecordRegion, sample: int = TEMPLATE_SAMPLE) -> float:
    """How alike the two lists' item templates are: for each of ``region``'s first items, the best
    tag-path similarity to one of ``anchor``'s first items, averaged."""
    anchors = [fingerprint(item) for item in anchor.items[:sample]]
    prints = [fingerprint(item) for item in region.items[:sample]]
    return sum(max(similarity(p, a) for a in anchors) for p in prints) / len(prints)


def _depth(node: etree._Element) -> int:
    return sum(1 for _ in node.iterancestors())
