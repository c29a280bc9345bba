"""Rules that need no fitting for a page's other record lists, scored cross-half beside the second model.

Issue 34 (third round): :mod:`nexteval_anatomy` shows that on pages the fit never saw most of the loss is
in the *other* lists — true lists not taken cost 0.094 F1 a page, extra lists 0.030, the main list 0.006.
Judging by its ground truth, NEXT-EVAL annotates the records of every list of records on a page (the
item lists of each card, the rows of each table of one kind), not only the main list, and menus and
footer links on some pages only. Each variant here keeps the first
model's main list (refitted on the training half, the penalty chosen inside it) and decides the other
lists its own way; the variants are scored on the half the fit never saw
(:func:`scrapesmith.bench.nexteval_fit.half_splits`), with runs of 10 consecutive pages held out in turn
(leave-group-out, the penalty fixed as in ``bench nexteval --fit``), and in-sample on pages 1-100 for
reference. The floors of the rules were tried after the first results, on all 100 pages: a choice among
them is itself fitted to these pages.

Variants (``--variants``, comma-separated; ``all`` by default):

* ``shipped`` — the second model (:func:`scrapesmith.dom.select_lists`);
* ``shipped+repeats 0.9`` / ``1.0`` — the second model, then every list that repeats the item template of a
  list taken (:func:`template_repeats`);
* ``shipped+parallel sections [p>=F]`` — the second model, then every list whose container sits at the
  same path of tags from the root as a taken list's, with the same item tag (the same list in a repeated
  section of the page), at ``F`` (0.05 unless named) or above on its own (:func:`parallel_sections`);
* ``p >= F [not chrome]`` — the first model's own probability instead of the second model
  (:func:`by_probability`);
* ``diagnose`` — prints the evidence of every true list the second model missed and every false one it
  did not take, for reading (no score).

Run: ``python research/nexteval_other_lists_rules.py [--variants …] [--json OUT]`` (a few minutes on 2
cores; no model, no browser).

Journal: docs/journal/benchmarks.md, "1. Error anatomy on held-out halves".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

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
from scrapesmith.dom import RankedList, secondary_features, select_lists

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
Selection = Callable[[list[RankedList], FittedModels], list[RankedList]]


def shipped(ranked: list[RankedList], fitted: FittedModels) -> list[RankedList]:
    secondary = fitted.secondary

    def judge(candidate: RankedList, main: RankedList) -> float:
        return float(secondary.probabilities(np.array([secondary_features(candidate, main)]))[0])

    return select_lists(ranked, judge=judge)


def template_repeats(ranked: list[RankedList], chosen: list[RankedList], alike: float) -> list[RankedList]:
    """``chosen``, then every candidate left that repeats the item template of a list taken (template
    similarity ``alike`` or more, the same item tag and chrome status), until none is added."""
    from scrapesmith.dom.list_selection import overlapping, template_similarity

    chosen = list(chosen)
    added = True
    while added:
        added = False
        for candidate in ranked:
            if any(candidate is c or overlapping(candidate.region, c.region) for c in chosen):
                continue
            e = candidate.evidence
            if any(
                e.item_tag == c.evidence.item_tag
                and e.in_chrome == c.evidence.in_chrome
                and template_similarity(candidate.region, c.region) >= alike
                for c in chosen
            ):
                chosen.append(candidate)
                added = True
    return chosen


def tag_path(element) -> tuple[str, ...]:
    """The element's path of tags from the root, without indexes: the same in every repeated section."""
    return tuple(str(node.tag) for node in reversed([element, *element.iterancestors()]))


def parallel_sections(ranked: list[RankedList], chosen: list[RankedList], floor: float) -> list[RankedList]:
    """``chosen``, then every candidate at ``floor`` or above on its own whose container sits at the same
    tag path as a taken list's (the same list in a repeated section of the page), with the same item tag."""
    from scrapesmith.dom.list_selection import overlapping

    chosen = list(chosen)
    paths = {(tag_path(c.region.parent), c.evidence.item_tag) for c in chosen}
    for candidate in ranked:
        if candidate.probability < floor or any(
            candidate is c or overlapping(candidate.region, c.region) for c in chosen
        ):
            continue
        if (tag_path(candidate.region.parent), candidate.evidence.item_tag) in paths:
            chosen.append(candidate)
    return chosen


def by_probability(ranked: list[RankedList], floor: float, chrome: bool) -> list[RankedList]:
    """The main list, then every other candidate at ``floor`` or above on its own (the first model's
    probability, no second model) that overlaps none taken; with ``chrome``, not in site chrome unless
    the main list is."""
    from scrapesmith.dom.list_selection import overlapping

    if not ranked:
        return []
    chosen = [ranked[0]]
    for candidate in ranked[1:]:
        if candidate.probability < floor:
            break
        if chrome and candidate.evidence.in_chrome and not ranked[0].evidence.in_chrome:
            continue
        if not any(overlapping(candidate.region, c.region) for c in chosen):
            chosen.append(candidate)
    return chosen


def variants() -> dict[str, Selection]:
    return {
        "shipped": shipped,
        "shipped+repeats 0.9": lambda ranked, fitted: template_repeats(ranked, shipped(ranked, fitted), 0.9),
        "shipped+repeats 1.0": lambda ranked, fitted: template_repeats(ranked, shipped(ranked, fitted), 1.0),
        "shipped+parallel sections": lambda ranked, fitted: parallel_sections(ranked, shipped(ranked, fitted), 0.05),
        "shipped+parallel sections p>=0.2": lambda ranked, fitted: parallel_sections(
            ranked, shipped(ranked, fitted), 0.2
        ),
        "shipped+parallel sections p>=0.1": lambda ranked, fitted: parallel_sections(
            ranked, shipped(ranked, fitted), 0.1
        ),
        "shipped+parallel sections p>=0.3": lambda ranked, fitted: parallel_sections(
            ranked, shipped(ranked, fitted), 0.3
        ),
        "p >= 0.5": lambda ranked, fitted: by_probability(ranked, 0.5, False),
        "p >= 0.5 not chrome": lambda ranked, fitted: by_probability(ranked, 0.5, True),
        "p >= 0.6": lambda ranked, fitted: by_probability(ranked, 0.6, False),
        "p >= 0.4": lambda ranked, fitted: by_probability(ranked, 0.4, False),
    }


def page_scores(pages: list[PageData], fitted: FittedModels, select: Selection) -> list[float]:
    scores = []
    for page in pages:
        ranked = ranked_by(page, fitted.evidence)
        records = {id(candidate.region): cand.records for candidate, cand in ranked}
        chosen = select([candidate for candidate, _ in ranked], fitted)
        predicted = [record for candidate in chosen for record in records[id(candidate.region)]]
        scores.append(score_records(predicted, page.truth).f1)
    return scores


def diagnose(pages: list[PageData], ids: list[str], fitted: FittedModels) -> None:
    """One line per true list the second model left out and per false one it rightly left out."""
    from scrapesmith.dom.list_selection import overlapping, template_similarity

    for page, page_id in zip(pages, ids, strict=True):
        ranked = ranked_by(page, fitted.evidence)
        chosen = shipped([candidate for candidate, _ in ranked], fitted)
        for candidate, cand in ranked:
            if any(overlapping(candidate.region, other.region) for other in chosen):
                continue
            e = candidate.evidence
            alike = max(template_similarity(candidate.region, other.region) for other in chosen)
            print(
                f"{page_id:>4} {'TRUE ' if cand.label else 'false'} p {candidate.probability:.3f} "
                f"items {e.items:3d} alike {alike:.2f} tag {e.item_tag:6} chrome {int(e.in_chrome)}"
                f"{int(e.in_chrome_element)} chars {e.chars_per_item:6.0f} sim {e.similarity:.2f} "
                f"links {e.link_share:.2f} digits {e.digit_share:.2f} looks {e.look_alikes} "
                f"| {' / '.join(candidate.preview(2, 40))}"
            )


def taken(pages: list[PageData], ids: list[str], fitted: FittedModels) -> None:
    """One line per other list the second model takes, true or not."""
    from scrapesmith.dom.list_selection import template_similarity

    for page, page_id in zip(pages, ids, strict=True):
        ranked = ranked_by(page, fitted.evidence)
        labels = {id(candidate.region): cand.label for candidate, cand in ranked}
        chosen = shipped([candidate for candidate, _ in ranked], fitted)
        main_list = chosen[0]
        for candidate in chosen[1:]:
            e, m = candidate.evidence, main_list.evidence
            print(
                f"{page_id:>4} {'TRUE ' if labels[id(candidate.region)] else 'false'} p {candidate.probability:.3f} "
                f"items {e.items:3d}/{m.items:3d} alike {template_similarity(candidate.region, main_list.region):.2f} "
                f"tag {e.item_tag}/{m.item_tag} chrome {int(e.in_chrome)}{int(e.in_chrome_element)}/"
                f"{int(m.in_chrome)}{int(m.in_chrome_element)} chars {e.chars_per_item:4.0f}/{m.chars_per_item:4.0f} "
                f"share {e.text_share:.3f}/{m.text_share:.3f} digits {e.digit_share:.2f}/{m.digit_share:.2f} "
                f"pos {e.position:.2f}/{m.position:.2f} | {' / '.join(candidate.preview(2, 30))}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--variants", default="all")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    html, truth = args.data / "html", args.data / "groundtruth"
    ids = page_ids(html, truth)[: args.limit]
    pages = load_pages(html, truth, args.limit)
    if args.variants == "diagnose":
        diagnose(pages, ids, fit_models(pages))
        for split, train, test in half_splits(len(pages)):
            train_pages = [pages[i] for i in train]
            print(f"# taken, {split}")
            taken([pages[i] for i in test], [ids[i] for i in test], fit_models(train_pages, choose_c(train_pages)))
        return
    table = variants()
    names = list(table) if args.variants == "all" else args.variants.split(",")
    in_sample = fit_models(pages)
    splits = [(name, test, fit_models(train_pages := [pages[i] for i in train], choose_c(train_pages)))
              for name, train, test in half_splits(len(pages))]
    groups = [
        (test, fit_models([page for j, page in enumerate(pages) if j not in test]))
        for test in (set(range(k, min(k + GROUP_SIZE, len(pages)))) for k in range(0, len(pages), GROUP_SIZE))
    ]
    result = {}
    for name in names:
        inside = page_scores(pages, in_sample, table[name])
        left_out = [s for test, fitted in groups for s in page_scores([pages[i] for i in sorted(test)], fitted, table[name])]
        halves = {split: page_scores([pages[i] for i in test], fitted, table[name]) for split, test, fitted in splits}
        scored = [score for scores in halves.values() for score in scores]
        result[name] = {
            "in_sample": float(np.mean(inside)),
            "in_sample_under_half": sum(1 for s in inside if s < LOW_F1),
            "cross_half": float(np.mean(scored)),
            "leave_group_out": float(np.mean(left_out)),
            "cross_half_under_half": sum(1 for s in scored if s < LOW_F1),
            "halves": {split: float(np.mean(scores)) for split, scores in halves.items()},
            "pages": {split: dict(zip([ids[i] for i in test], halves[split], strict=True))
                      for split, test, _ in splits},
        }
        row = result[name]
        print(f"{name:24} in-sample {row['in_sample']:.4f} ({row['in_sample_under_half']} < {LOW_F1})  "
              f"cross-half {row['cross_half']:.4f} ({row['cross_half_under_half']} of {len(scored)} < {LOW_F1})  "
              f"leave-group-out {row['leave_group_out']:.4f}  "
              + " / ".join(f"{f1:.4f}" for f1 in row["halves"].values()), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
