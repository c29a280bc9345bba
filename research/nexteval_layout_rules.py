"""Layout rules for a page's other lists, scored on NEXT-EVAL pages the fit never saw.

Issue 34 (fifth round). The held-out loss sits in the *other* lists: true lists that are candidates and
are not taken (0.094 a page cross-half, most of them menus and footer links annotated on some pages
only) and extra lists taken (0.030). A person reads both from the rendered page: the lists that hold
records sit in the content column near the main list and their items look alike (same size, lined up),
while menus sit in header, footer or side bands, and dropdowns are not drawn at all. Each variant keeps
the shipped main list (first model refitted on the training pages, penalty chosen inside them) and the
shipped second model with its furniture check (:func:`scrapesmith.dom.list_selection.furniture_beside`),
then adds or removes other lists by one layout rule with a few thresholds that read in pixels or
shares, none fitted. Scored as in ``nexteval_other_lists_rules.py``: in-sample on pages 1-100, the four
cross-half directions (penalty chosen inside each training half), and leave-group-out (runs of 10).

Variants (``--variants``, comma-separated; ``all`` by default):

* ``shipped`` — what ``bench nexteval --render`` ships (before issue 34e's change the furniture check
  alone; since then with ``+like any taken p>=0.2`` in it, as ``dom.list_selection.drawn_like_taken``: the
  before figures were taken with the code before it, ``bench/results/nexteval-issue34e-layout-rules*.json``);
* ``-hidden`` — other lists taken whose items are mostly not drawn are dropped;
* ``-off column`` — other lists taken that do not overlap the main list's column (half their width or
  more outside its left and right edges) are dropped;
* ``-bands`` — other lists taken that lie wholly above or below the main list *and* outside its column
  are dropped;
* ``+alike near [p>=F]`` — lists not taken, at ``F`` or above on their own (0.05 unless named), drawn,
  in the main list's column, within one screen of it, with look-alike items (sizes within
  :data:`SPREAD` of each other, :data:`LINED` of neighbours lined up) are added;
* ``+same box [p>=F]`` — lists not taken whose median item box has the main list's median width and
  height (within :data:`SHAPE`) are added;
* ``-header`` / ``-footer`` — other lists taken that lie wholly above the main list on the first screen
  (wholly below it within the page's last screen) are dropped;
* ``+like any taken [p>=F] [shape T]`` — as ``+same box``, against the item box of any list taken (width
  and height within ``T``, :data:`SHAPE` unless named); the floors and tolerances beside 0.2 and 0.15
  were added after the first run, to see whether the gain holds beside the values set before it;
* ``main: drawn`` — a main list whose items are mostly not drawn gives way to the likeliest drawn one;
* ``diagnose`` — no score: how many true and false lists each predicate holds for, in-sample;
* ``item levels`` — no score: of the items of the lists taken, how many have one element child only and
  how many draw it on the item's own box (then layout cannot tell the two levels apart).

Every page is drawn once through the layout cache (``bench nexteval --render`` fills it; pages not in it
are drawn here). Run: ``python research/nexteval_layout_rules.py [--variants …] [--json OUT]`` (a few
minutes on 2 cores once the layouts are cached; no model).

Journal: docs/journal/benchmarks.md, "3. Layout rules for the other lists (`python research/nexteval_layout_rules.py --json bench/results/nexteval-issue34e-layout-rules.json`)".
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from lxml import etree

from scrapesmith.bench.layout_cache import LayoutCache
from scrapesmith.bench.nexteval import page_ids, score_records
from scrapesmith.bench.nexteval_fit import (
    GROUP_SIZE,
    LOW_F1,
    FittedModels,
    PageData,
    choose_c,
    fit_models,
    half_splits,
    load_pages,
    ranked_by,
)
from scrapesmith.config import read_settings
from scrapesmith.dom import PageLayout, RankedList, overlapping, secondary_features, select_lists
from scrapesmith.dom.layout import VIEWPORT, Box
from scrapesmith.dom.list_layout import record_box
from scrapesmith.web.browser import BrowserRuntime, render_layout

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
SPREAD = 0.25  # item widths and heights within this coefficient of variation look alike
LINED = 0.8  # this share of neighbouring items share a left edge or a top
SHAPE = 0.15  # two median item boxes this close in width and height (relative) have the same shape
IN_COLUMN = 0.5  # at least this share of a list's width inside the main list's left and right edges
SHOWN = 0.5  # a list with fewer of its items drawn is hidden


@dataclass
class Geometry:
    """Where a candidate list's items were drawn: their visible boxes and the box around them all."""

    boxes: list[Box]
    shown_share: float
    page_height: float = 0.0

    @property
    def drawn(self) -> bool:
        return bool(self.boxes) and self.shown_share >= SHOWN

    @property
    def left(self) -> float:
        return min(box.x for box in self.boxes)

    @property
    def right(self) -> float:
        return max(box.right for box in self.boxes)

    @property
    def top(self) -> float:
        return min(box.y for box in self.boxes)

    @property
    def bottom(self) -> float:
        return max(box.bottom for box in self.boxes)

    def column_share(self, other: Geometry) -> float:
        """How much of this list's width lies between ``other``'s left and right edges."""
        width = max(self.right - self.left, 1.0)
        return max(min(self.right, other.right) - max(self.left, other.left), 0.0) / width

    def gap(self, other: Geometry) -> float:
        """The vertical distance between the two lists (0 when they overlap in height)."""
        return max(self.top - other.bottom, other.top - self.bottom, 0.0)

    def alike(self) -> bool:
        if len(self.boxes) < 2:
            return False
        widths, heights = [box.width for box in self.boxes], [box.height for box in self.boxes]
        if _spread(widths) > SPREAD or _spread(heights) > SPREAD:
            return False
        pairs = list(zip(self.boxes, self.boxes[1:], strict=False))
        lined = sum(1 for a, b in pairs if abs(a.x - b.x) <= 2 or abs(a.y - b.y) <= 2)
        return lined / len(pairs) >= LINED

    def shape(self) -> tuple[float, float]:
        return statistics.median(box.width for box in self.boxes), statistics.median(
            box.height for box in self.boxes
        )


def _spread(values: list[float]) -> float:
    mean = statistics.fmean(values)
    return statistics.pstdev(values) / mean if mean > 0 else 0.0


def geometry(candidate: RankedList, layout: PageLayout) -> Geometry | None:
    region = candidate.region
    boxes = [record_box(region, k, layout) for k in range(region.size)]
    measured = [box for box in boxes if box is not None]
    if not measured:
        return None
    shown = [box for box in measured if box.visible and box.width > 0 and box.height > 0]
    return Geometry(shown, len(shown) / len(measured), layout.height)


Rule = Callable[[list[RankedList], list[RankedList], dict[int, Geometry | None]], list[RankedList]]


def shipped(ranked: list[RankedList], fitted: FittedModels) -> list[RankedList]:
    secondary = fitted.secondary

    def judge(candidate: RankedList, main: RankedList) -> float:
        return float(secondary.probabilities(np.array([secondary_features(candidate, main)]))[0])

    return select_lists(ranked, judge=judge)


def drop(keep: Callable[[Geometry, Geometry], bool]) -> Rule:
    """Other lists taken are dropped unless ``keep`` (theirs, the main list's) — when both were drawn."""

    def rule(
        ranked: list[RankedList], chosen: list[RankedList], shapes: dict[int, Geometry | None]
    ) -> list[RankedList]:
        main = shapes[id(chosen[0].region)]
        if main is None or not main.drawn:
            return chosen
        kept = [chosen[0]]
        for candidate in chosen[1:]:
            mine = shapes[id(candidate.region)]
            if mine is None or (mine.boxes and keep(mine, main)):
                kept.append(candidate)
        return kept

    return rule


def add(take: Callable[[Geometry, Geometry], bool], floor: float) -> Rule:
    """Lists not taken, at ``floor`` or above, overlapping none taken, are added when ``take`` says so."""

    def rule(
        ranked: list[RankedList], chosen: list[RankedList], shapes: dict[int, Geometry | None]
    ) -> list[RankedList]:
        main = shapes[id(chosen[0].region)]
        if main is None or not main.drawn:
            return chosen
        result = list(chosen)
        for candidate in ranked:
            if candidate.probability < floor or any(overlapping(candidate.region, o.region) for o in result):
                continue
            mine = shapes[id(candidate.region)]
            if mine is not None and mine.drawn and take(mine, main):
                result.append(candidate)
        return result

    return rule


def hidden_main(
    ranked: list[RankedList], chosen: list[RankedList], shapes: dict[int, Geometry | None]
) -> list[RankedList]:
    main = shapes[id(chosen[0].region)]
    if main is None or main.drawn:
        return chosen
    drawn = [c for c in ranked if (g := shapes[id(c.region)]) is not None and g.drawn]
    return [drawn[0]] if drawn else chosen


def add_like_taken(floor: float, tolerance: float = SHAPE) -> Rule:
    """Lists not taken whose median item box has the shape of any list taken (not only the main list's)."""

    def rule(
        ranked: list[RankedList], chosen: list[RankedList], shapes: dict[int, Geometry | None]
    ) -> list[RankedList]:
        taken = [g for c in chosen if (g := shapes[id(c.region)]) is not None and g.drawn]
        result = list(chosen)
        for candidate in ranked:
            if candidate.probability < floor or any(overlapping(candidate.region, o.region) for o in result):
                continue
            mine = shapes[id(candidate.region)]
            if mine is not None and mine.drawn and any(same_box(mine, other, tolerance) for other in taken):
                result.append(candidate)
        return result

    return rule


def in_header(mine: Geometry, main: Geometry) -> bool:
    """Wholly above the main list and on the first screen: the page's header band."""
    return mine.bottom <= main.top and mine.top < VIEWPORT[1]


def in_footer(mine: Geometry, main: Geometry) -> bool:
    """Wholly below the main list and within the last screen of the page: its footer band."""
    return mine.top >= main.bottom and mine.bottom > mine.page_height - VIEWPORT[1]


def near_alike(mine: Geometry, main: Geometry) -> bool:
    return mine.column_share(main) >= IN_COLUMN and mine.gap(main) <= 800 and mine.alike()


def same_box(mine: Geometry, main: Geometry, tolerance: float = SHAPE) -> bool:
    (w, h), (mw, mh) = mine.shape(), main.shape()
    return abs(w - mw) <= tolerance * max(mw, 1.0) and abs(h - mh) <= tolerance * max(mh, 1.0)


RULES: dict[str, Rule | None] = {
    "shipped": None,
    "-hidden": drop(lambda mine, main: mine.drawn),
    "-off column": drop(lambda mine, main: mine.column_share(main) >= IN_COLUMN),
    "-bands": drop(lambda mine, main: mine.column_share(main) >= IN_COLUMN or mine.gap(main) == 0),
    "+alike near": add(near_alike, 0.05),
    "+alike near p>=0.2": add(near_alike, 0.2),
    "+same box": add(same_box, 0.05),
    "+same box p>=0.2": add(same_box, 0.2),
    "-header": drop(lambda mine, main: not in_header(mine, main)),
    "-footer": drop(lambda mine, main: not in_footer(mine, main)),
    "-header -footer": drop(lambda mine, main: not in_header(mine, main) and not in_footer(mine, main)),
    "+like any taken p>=0.2": add_like_taken(0.2),
    "+like any taken p>=0.05": add_like_taken(0.05),
    "+like any taken p>=0.1": add_like_taken(0.1),
    "+like any taken p>=0.3": add_like_taken(0.3),
    "+like any taken p>=0.2 shape 0.10": add_like_taken(0.2, 0.10),
    "+like any taken p>=0.2 shape 0.25": add_like_taken(0.2, 0.25),
    "main: drawn": hidden_main,
}


@dataclass
class Page:
    data: PageData
    layout: PageLayout


def page_scores(pages: list[Page], fitted: FittedModels, rule: Rule | None) -> list[float]:
    scores = []
    for page in pages:
        ranked = ranked_by(page.data, fitted.evidence)
        records = {id(candidate.region): cand.records for candidate, cand in ranked}
        candidates = [candidate for candidate, _ in ranked]
        chosen = shipped(candidates, fitted)
        if rule is not None and chosen:
            shapes = {id(c.region): geometry(c, page.layout) for c in candidates}
            chosen = rule(candidates, chosen, shapes)
        predicted = [record for candidate in chosen for record in records[id(candidate.region)]]
        scores.append(score_records(predicted, page.data.truth).f1)
    return scores


def diagnose(pages: list[Page], fitted: FittedModels) -> dict[str, dict[str, int]]:
    """How many true and false lists each layout predicate holds for, among the other lists taken (what a
    drop rule would remove) and among those left out at 0.05 or above (what an add rule would take)."""
    tally: dict[str, dict[str, int]] = {}

    def count(group: str, label: bool, mine: Geometry | None, main: Geometry) -> None:
        flags = {"unmeasured": mine is None}
        if mine is not None:
            flags |= {
                "hidden": not mine.drawn,
                "in column": bool(mine.boxes) and mine.column_share(main) >= IN_COLUMN,
                "within a screen": bool(mine.boxes) and mine.gap(main) <= 800,
                "alike": mine.alike(),
                "same box": bool(mine.boxes) and same_box(mine, main),
                "header band": bool(mine.boxes) and in_header(mine, main),
                "footer band": bool(mine.boxes) and in_footer(mine, main),
            }
        for flag, holds in [("all", True), *flags.items()]:
            if holds:
                row = tally.setdefault(f"{group}: {flag}", {"true": 0, "false": 0})
                row["true" if label else "false"] += 1

    for page in pages:
        ranked = ranked_by(page.data, fitted.evidence)
        labels = {id(candidate.region): cand.label for candidate, cand in ranked}
        candidates = [candidate for candidate, _ in ranked]
        chosen = shipped(candidates, fitted)
        main = geometry(chosen[0], page.layout) if chosen else None
        if main is None or not main.drawn:
            continue
        for candidate in chosen[1:]:
            count("taken", labels[id(candidate.region)], geometry(candidate, page.layout), main)
        for candidate in candidates:
            if candidate.probability >= 0.05 and not any(
                overlapping(candidate.region, o.region) for o in chosen
            ):
                count("left out", labels[id(candidate.region)], geometry(candidate, page.layout), main)
    for name, row in tally.items():
        print(f"{name:32} true {row['true']:5d}  false {row['false']:5d}")
    return tally


def item_levels(pages: list[Page], ids: list[str], fitted: FittedModels) -> dict[str, dict[str, int]]:
    """Whether layout could decide the item level: of the items of every list taken (in-sample), how many
    have one element child only and how many of those draw that child on the item's own box (within
    :data:`SAME_PLACE` pixels on every side) — where they do, the two levels look the same on the page."""
    tally: dict[str, dict[str, int]] = {}
    for page, page_id in zip(pages, ids, strict=True):
        ranked = ranked_by(page.data, fitted.evidence)
        row = {"items": 0, "one child": 0, "same box": 0}
        for candidate in shipped([candidate for candidate, _ in ranked], fitted):
            for item in candidate.region.items:
                children = [child for child in item if isinstance(child.tag, str)]
                row["items"] += 1
                if len(children) != 1:
                    continue
                row["one child"] += 1
                outer, inner = page.layout.box(item), page.layout.box(children[0])
                if outer is not None and inner is not None and _same_place(outer, inner):
                    row["same box"] += 1
        tally[page_id] = row
    totals = {key: sum(row[key] for row in tally.values()) for key in ("items", "one child", "same box")}
    print(
        f"items of lists taken {totals['items']}, with one element child {totals['one child']}, "
        f"drawn on the item's own box {totals['same box']}"
    )
    return {"total": totals, **tally}


SAME_PLACE = 1.0  # pixels


def _same_place(a: Box, b: Box) -> bool:
    return all(
        abs(x - y) <= SAME_PLACE
        for x, y in ((a.x, b.x), (a.y, b.y), (a.right, b.right), (a.bottom, b.bottom))
    )


def load(html: Path, truth: Path, limit: int | None) -> list[Page]:
    runtime = BrowserRuntime()
    layouts: list[PageLayout] = []
    cache = LayoutCache(read_settings().cache_dir / "layouts", lambda root: render_layout(root, runtime))

    def draw(root: etree._Element) -> PageLayout:
        layout = cache(root)
        layouts.append(layout)
        return layout

    try:
        data = load_pages(html, truth, limit, draw)
    finally:
        runtime.close()
    print(
        f"layouts: {cache.drawn} drawn, {cache.hits} from the cache, "
        f"{sum(1 for layout in layouts if not layout.rendered)} not rendered",
        flush=True,
    )
    return [Page(page, layout) for page, layout in zip(data, layouts, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--variants", default="all")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    html, truth = args.data / "html", args.data / "groundtruth"
    ids = page_ids(html, truth)[: args.limit]
    pages = load(html, truth, args.limit)
    data = [page.data for page in pages]
    in_sample = fit_models(data)
    if args.variants == "item levels":
        levels = item_levels(pages, ids, in_sample)
        if args.json:
            args.json.write_text(json.dumps(levels, indent=1), encoding="utf-8")
        return
    if args.variants == "diagnose":
        tally = diagnose(pages, in_sample)
        if args.json:
            args.json.write_text(json.dumps(tally, indent=1), encoding="utf-8")
        return
    names = list(RULES) if args.variants == "all" else args.variants.split(",")
    splits = [
        (name, test, fit_models(train_pages := [data[i] for i in train], choose_c(train_pages)))
        for name, train, test in half_splits(len(pages))
    ]
    groups = [
        (test, fit_models([page for j, page in enumerate(data) if j not in test]))
        for test in (set(range(k, min(k + GROUP_SIZE, len(pages)))) for k in range(0, len(pages), GROUP_SIZE))
    ]
    result = {}
    for name in names:
        rule = RULES[name]
        inside = page_scores(pages, in_sample, rule)
        left_out = [
            s for test, fitted in groups for s in page_scores([pages[i] for i in sorted(test)], fitted, rule)
        ]
        halves = {
            split: page_scores([pages[i] for i in test], fitted, rule) for split, test, fitted in splits
        }
        scored = [score for scores in halves.values() for score in scores]
        result[name] = {
            "in_sample": float(np.mean(inside)),
            "in_sample_under_half": sum(1 for s in inside if s < LOW_F1),
            "cross_half": float(np.mean(scored)),
            "cross_half_under_half": sum(1 for s in scored if s < LOW_F1),
            "leave_group_out": float(np.mean(left_out)),
            "leave_group_out_under_half": sum(1 for s in left_out if s < LOW_F1),
            "halves": {split: float(np.mean(scores)) for split, scores in halves.items()},
            "pages_cross_half": {
                split: dict(zip([ids[i] for i in test], halves[split], strict=True))
                for split, test, _ in splits
            },
            "pages_leave_group_out": dict(
                zip([ids[i] for test, _ in groups for i in sorted(test)], left_out, strict=True)
            ),
            "pages_in_sample": dict(zip(ids, inside, strict=True)),
        }
        row = result[name]
        print(
            f"{name:20} in-sample {row['in_sample']:.4f} ({row['in_sample_under_half']} < {LOW_F1})  "
            f"cross-half {row['cross_half']:.4f} ({row['cross_half_under_half']} of {len(scored)} < {LOW_F1})  "
            f"leave-group-out {row['leave_group_out']:.4f} ({row['leave_group_out_under_half']} < {LOW_F1})",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
