"""Which uses of the rendered layout help list detection on NEXT-EVAL pages they were not tuned on.

Every page is drawn once (``web.browser.layout.render_layout``: its own markup only, 1280x800) and its
candidates carry their layout evidence. Each variant below is then scored the way ``bench nexteval
--fit`` scores the shipped detector: both evidence models refitted on the training pages, the held-out
pages detected. Splits: two halves, alternate pages, runs of 10 consecutive pages in turn (leave-group-out)
and 5 random groups (seed 0); ``held`` is the mean of the four.

Variants (the first is what ships without a browser, the second what ships with one):

* ``dom`` — DOM evidence only;
* ``furniture 0.05`` — another list covering under 5 % of the main list's area and unlike its template
  is left out (``dom.list_selection.furniture_beside``); also at 0.02 and 0.10, and with the threshold
  chosen inside each training fold (``nested``);
* ``hidden`` — candidates whose items are mostly not drawn are removed;
* ``swap x10`` — a list the DOM puts at 0.5 or more covering ten times the main list's area becomes the
  main list; ``tie x2`` — the same at twice the area when the best two are within 0.1;
* ``model 1 + layout`` — the nine layout measures as features of the first model;
  ``model 2 + layout`` — five layout comparisons with the main list in the second model;
  ``model 2 + area`` — only the area ratio there (with the furniture rule);
* ``rules for other lists`` — no second model: p >= 0.7, or p >= 0.3 and a template like the main
  list's (with the furniture rule).

Run: ``python research/nexteval_layout_variants.py [--variants dom,furniture-0.05] [--json OUT]`` (about
10 minutes on 2 cores; no model); ``--hidden`` only lists the candidates that are not drawn and which of
them the annotation counts as records.

Journal: docs/journal/benchmarks.md, "Every use of the layout that was tried, held out".
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scrapesmith.bench.nexteval import page_ids, score_records
from scrapesmith.bench.nexteval_fit import DEFAULT_C, LabelledList, PageData, fit_logistic, load_pages
from scrapesmith.dom.list_evidence import RankedList
from scrapesmith.dom.list_layout import LayoutEvidence
from scrapesmith.dom.list_selection import (
    SECONDARY_FLOOR,
    overlapping,
    secondary_features,
    template_similarity,
)
from scrapesmith.web.browser import BrowserRuntime
from scrapesmith.web.browser.layout import render_layout

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
SEEDS = 1  # random groupings scored (one keeps a run of every variant near ten minutes on 2 cores)
UNMEASURED = LayoutEvidence(1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0)


def layout(candidate: LabelledList) -> LayoutEvidence:
    return candidate.ranked.evidence.layout or UNMEASURED


def layout_features(candidate: LabelledList) -> list[float]:
    measured = layout(candidate)
    return [
        measured.shown_share, math.sqrt(measured.area_share), measured.first_screen_share, measured.height_spread,
        measured.aligned_share, measured.centre_offset, math.log(max(measured.font_ratio, 0.1)),
        math.log1p(measured.lines_per_item), measured.image_share,
    ]


def layout_comparisons(candidate: LabelledList, main: LabelledList) -> list[float]:
    mine, theirs = layout(candidate), layout(main)
    return [
        math.log1p(mine.lines_per_item) - math.log1p(theirs.lines_per_item),
        abs(math.log(max(mine.font_ratio, 0.1)) - math.log(max(theirs.font_ratio, 0.1))),
        mine.image_share - theirs.image_share,
        mine.shown_share,
        math.sqrt(mine.area_share) - math.sqrt(theirs.area_share),
    ]


def area_ratio(candidate: LabelledList, main: LabelledList) -> list[float]:
    return [math.log((layout(candidate).area_share + 1e-4) / (layout(main).area_share + 1e-4))]


@dataclass
class Variant:
    """One way of using the layout: extra features for either model, and rules around them."""

    extra_first: Callable[[LabelledList], list[float]] | None = None
    extra_second: Callable[[LabelledList, LabelledList], list[float]] | None = None
    furniture: float | None = None
    hidden: float | None = None
    swap: float | None = None
    swap_close: float | None = None
    rules: bool = False

    def first(self, candidate: LabelledList) -> list[float]:
        return candidate.features + (self.extra_first(candidate) if self.extra_first else [])

    def second(self, ranked: RankedList, candidate: LabelledList, main: RankedList, anchor: LabelledList) -> list[float]:
        extra = self.extra_second(candidate, anchor) if self.extra_second else []
        return secondary_features(ranked, main) + extra


def _ranked(page: PageData, variant: Variant, first) -> list[tuple[RankedList, LabelledList]]:
    candidates = [c for c in page.candidates if variant.hidden is None or layout(c).shown_share >= variant.hidden]
    if not candidates:
        return []
    probabilities = first.probabilities(np.array([variant.first(c) for c in candidates]))
    pairs = sorted(
        ((RankedList(c.ranked.region, c.ranked.evidence, float(p)), c) for c, p in zip(candidates, probabilities, strict=True)),
        key=lambda pair: pair[0].probability, reverse=True,
    )
    if variant.swap is not None and len(pairs) > 1:
        top = pairs[0]
        close = variant.swap_close
        heavier = [
            pair for pair in pairs[1:]
            if pair[0].probability >= 0.5
            and (close is None or top[0].probability - pair[0].probability < close)
            and layout(pair[1]).area_share >= variant.swap * max(layout(top[1]).area_share, 1e-4)
            and not overlapping(pair[0].region, top[0].region)
        ]
        if heavier:
            chosen = max(heavier, key=lambda pair: layout(pair[1]).area_share)
            pairs.remove(chosen)
            pairs.insert(0, chosen)
    return pairs


def _furniture(variant: Variant, ranked: RankedList, candidate: LabelledList, main: RankedList, anchor: LabelledList) -> bool:
    if variant.furniture is None or anchor.ranked.evidence.layout is None or candidate.ranked.evidence.layout is None:
        return False
    small = layout(candidate).area_share < variant.furniture * layout(anchor).area_share
    return small and template_similarity(ranked.region, main.region) < 0.5


def score(variant: Variant, train: list[PageData], test: list[PageData], c: float = DEFAULT_C) -> list[float]:
    """Page F1 on ``test`` with both models fitted on ``train`` under ``variant``."""
    first = fit_logistic(
        np.array([variant.first(cand) for page in train for cand in page.candidates]),
        np.array([cand.label for page in train for cand in page.candidates], dtype=float), c,
    )
    features, labels = [], []
    for page in train:
        pairs = _ranked(page, variant, first)
        for ranked, cand in pairs[1:]:
            if ranked.probability >= SECONDARY_FLOOR and not overlapping(ranked.region, pairs[0][0].region):
                features.append(variant.second(ranked, cand, *pairs[0]))
                labels.append(cand.label)
    second = fit_logistic(np.array(features), np.array(labels, dtype=float), c)
    scores = []
    for page in test:
        pairs = _ranked(page, variant, first)
        predicted: list[frozenset[str]] = []
        if pairs:
            main, anchor = pairs[0]
            chosen = [main]
            predicted.extend(anchor.records)
            judged = []
            for ranked, cand in pairs[1:]:
                if ranked.probability < SECONDARY_FLOOR or overlapping(ranked.region, main.region):
                    continue
                if _furniture(variant, ranked, cand, main, anchor):
                    continue
                if variant.rules:
                    alike = template_similarity(ranked.region, main.region) >= 0.5
                    keep = ranked.probability >= 0.7 or (ranked.probability >= 0.3 and alike)
                    judged.append((1.0 if keep else 0.0, ranked, cand))
                else:
                    probability = float(second.probabilities(np.array([variant.second(ranked, cand, main, anchor)]))[0])
                    judged.append((probability, ranked, cand))
            for probability, ranked, cand in sorted(judged, key=lambda item: item[0], reverse=True):
                if probability < 0.5:
                    break
                if not any(overlapping(ranked.region, other.region) for other in chosen):
                    chosen.append(ranked)
                    predicted.extend(cand.records)
        scores.append(score_records(predicted, page.truth).f1)
    return scores


def splits(count: int) -> dict[str, list[list[int]]]:
    """Group labels per page for each held-out split (random groups: one labelling per seed)."""
    shuffled = []
    for seed in range(SEEDS):
        order = np.random.default_rng(seed).permutation(count)
        groups = [0] * count
        for rank, index in enumerate(order):
            groups[int(index)] = rank % 5
        shuffled.append(groups)
    return {
        "halves": [[0 if i < count // 2 else 1 for i in range(count)]],
        "alternate": [[i % 2 for i in range(count)]],
        "groups of 10": [[i // 10 for i in range(count)]],
        "random 5": shuffled,
    }


def held_out(pages: list[PageData], groups: list[int], run: Callable[[list[PageData], list[PageData]], list[float]]) -> float:
    total = np.zeros(len(pages))
    for group in sorted(set(groups)):
        test = [i for i, g in enumerate(groups) if g == group]
        train = [pages[i] for i, g in enumerate(groups) if g != group]
        for index, value in zip(test, run(train, [pages[i] for i in test]), strict=True):
            total[index] = value
    return float(total.mean())


def nested_furniture(train: list[PageData], test: list[PageData]) -> list[float]:
    """The furniture threshold chosen on the training pages alone (their fitted F1), then applied to the test."""
    options = (None, 0.02, 0.05, 0.1)
    best = max(options, key=lambda ratio: float(np.mean(score(Variant(furniture=ratio), train, train))))
    return score(Variant(furniture=best), train, test)


VARIANTS: dict[str, Variant | None] = {
    "dom": Variant(),
    "furniture-0.05": Variant(furniture=0.05),
    "furniture-0.02": Variant(furniture=0.02),
    "furniture-0.10": Variant(furniture=0.10),
    "furniture-nested": None,
    "hidden": Variant(hidden=0.5),
    "swap-x10": Variant(swap=10.0),
    "tie-x2": Variant(furniture=0.05, swap=2.0, swap_close=0.1),
    "model1-layout": Variant(extra_first=layout_features),
    "model2-layout": Variant(extra_second=layout_comparisons),
    "model2-area": Variant(extra_second=area_ratio, furniture=0.05),
    "rules-for-other-lists": Variant(furniture=0.05, rules=True),
}


def hidden_report(pages: list[PageData], ids: list[str]) -> None:
    """How many candidates are mostly not drawn, and which of them the annotation counts as records."""
    hidden = [
        (page_id, cand) for page_id, page in zip(ids, pages, strict=True) for cand in page.candidates
        if cand.ranked.evidence.layout is not None and cand.ranked.evidence.layout.shown_share < 0.5
    ]
    records = [(page_id, cand) for page_id, cand in hidden if cand.label]
    print(f"candidates mostly not drawn: {len(hidden)}; annotated as records: {len(records)}")
    for page_id, cand in records:
        main = max(pages[ids.index(page_id)].candidates, key=lambda c: c.ranked.probability)
        role = "the DOM evidence's main list" if main is cand else "another list"
        print(f"  page {page_id}: {cand.ranked.region.size} items, {role} (p={cand.ranked.probability:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--groundtruth", type=Path, default=DATA / "groundtruth")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--limit", type=int, help="only the first N pages (a quick check; the figures need all)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--hidden", action="store_true", help="only report the lists that are not drawn")
    args = parser.parse_args()
    with BrowserRuntime() as runtime:
        pages = load_pages(args.html, args.groundtruth, args.limit, render=lambda root: render_layout(root, runtime))
    if args.hidden:
        hidden_report(pages, page_ids(args.html, args.groundtruth)[: args.limit])
        return
    results = {}
    for name in args.variants.split(","):
        variant = VARIANTS[name]
        run = nested_furniture if variant is None else (lambda train, test, v=variant: score(v, train, test))
        row = {"fitted": float(np.mean(run(pages, pages))) if variant is not None else float("nan")}
        for split, labellings in splits(len(pages)).items():
            row[split] = float(np.mean([held_out(pages, groups, run) for groups in labellings]))
        row["held"] = float(np.mean([row[split] for split in splits(len(pages))]))
        results[name] = row
        print(f"{name:24s} " + "  ".join(f"{key} {value:.4f}" for key, value in row.items()), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
