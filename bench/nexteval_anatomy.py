"""Where record detection loses F1 on pages its fit never saw: the error anatomy of the cross-half runs.

Issue 34: every estimate from NEXT-EVAL pages 1-100 stays above the figure on pages kept aside. Each
two-way split of :func:`scrapesmith.bench.nexteval_fit.half_splits` fits both models (the penalty chosen
inside the training half, as ``bench nexteval --fit`` does) on one half and detects on the other; each
scored page's loss is then split by fixing one kind of error at a time with the labels (a candidate is
a true list when its records overlap the truth by a mean best Jaccard of 0.5, as in the fit):

* ``main`` — the main list is not a true list: replaced by the likeliest true candidate;
* ``extra`` — other lists taken that are not true lists: dropped;
* ``missed`` — true candidate lists not taken (overlapping none taken): added, likeliest first;
* ``boundary`` — what is left when every list is right: items split or merged, the wrong item level,
  records listed twice in the truth, and true records no candidate covers (``uncovered`` counts those).

The costs are the F1 gained by each fix in that order; they add up to ``1 - F1`` per page.

Run: ``python bench/nexteval_anatomy.py [--selection shipped|rule] [--json OUT]`` (a few minutes on 2 cores;
no model, no browser).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from scrapesmith.bench.nexteval import overlap_matrix, score_records
from scrapesmith.bench.nexteval_fit import (
    LabelledList,
    PageData,
    choose_c,
    fit_models,
    half_splits,
    load_pages,
    ranked_by,
)
from scrapesmith.dom import RankedList, overlapping, secondary_features, select_lists

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
CLASSES = ("main", "extra", "missed", "boundary")


def f1_of(lists: list[LabelledList], page: PageData) -> float:
    return score_records([record for cand in lists for record in cand.records], page.truth).f1


def anatomy(page: PageData, ranked: list[tuple[RankedList, LabelledList]], chosen: list[RankedList]) -> dict:
    """The page's F1 and what each class of error costs it (see the module docstring)."""
    by_region = {id(candidate.region): cand for candidate, cand in ranked}
    taken = [by_region[id(candidate.region)] for candidate in chosen]
    f1 = f1_of(taken, page)
    fixed = list(taken)
    true_ranked = [cand for _, cand in ranked if cand.label]
    if fixed and not fixed[0].label and true_ranked:
        main = true_ranked[0]
        fixed = [main] + [c for c in fixed[1:] if not overlapping(c.ranked.region, main.ranked.region)]
    f_main = f1_of(fixed, page)
    fixed = [c for c in fixed if c.label]
    f_extra = f1_of(fixed, page)
    missed = 0
    for cand in true_ranked:
        if all(cand is not c and not overlapping(cand.ranked.region, c.ranked.region) for c in fixed):
            fixed.append(cand)
            missed += 1
    f_missed = f1_of(fixed, page)
    covered = [record for cand in page.candidates for record in cand.records]
    uncovered = (
        int((overlap_matrix(covered, page.truth).max(axis=0) < 0.5).sum()) if covered else len(page.truth)
    )
    return {
        "f1": f1,
        "cost": {
            "main": f_main - f1,
            "extra": f_extra - f_main,
            "missed": f_missed - f_extra,
            "boundary": 1.0 - f_missed,
        },
        "main_wrong": bool(taken and not taken[0].label),
        "extra_lists": sum(1 for c in taken[1:] if not c.label),
        "missed_lists": missed,
        "true_lists": len(true_ranked),
        "truth_records": len(page.truth),
        "uncovered_records": uncovered,
    }


def cross_half_anatomy(pages: list[PageData], ids: list[str], judge_factory) -> list[dict]:
    rows = []
    for split, train, test in half_splits(len(pages)):
        train_pages = [pages[i] for i in train]
        fitted = fit_models(train_pages, choose_c(train_pages))
        judge = judge_factory(fitted)
        for i in test:
            page = pages[i]
            ranked = ranked_by(page, fitted.evidence)
            chosen = select_lists([candidate for candidate, _ in ranked], judge=judge)
            rows.append({"split": split, "page": ids[i], **anatomy(page, ranked, chosen)})
    return rows


def shipped_judge(fitted):
    secondary = fitted.secondary
    return lambda candidate, main: float(secondary.probabilities(np.array([secondary_features(candidate, main)]))[0])


def summary(rows: list[dict]) -> dict:
    count = len(rows)
    return {
        "pages_scored": count,
        "f1": float(np.mean([row["f1"] for row in rows])),
        "under_half": sum(1 for row in rows if row["f1"] < 0.5),
        "mean_cost": {name: float(np.mean([row["cost"][name] for row in rows])) for name in CLASSES},
        "pages_losing": {name: sum(1 for row in rows if row["cost"][name] > 0.01) for name in CLASSES},
        "main_wrong": sum(row["main_wrong"] for row in rows),
        "extra_lists": sum(row["extra_lists"] for row in rows),
        "missed_lists": sum(row["missed_lists"] for row in rows),
        "worst_class": dict(Counter(max(CLASSES, key=lambda n: row["cost"][n]) for row in rows if row["f1"] < 0.9)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    from scrapesmith.bench.nexteval import page_ids

    ids = page_ids(args.data / "html", args.data / "groundtruth")[: args.limit]
    pages = load_pages(args.data / "html", args.data / "groundtruth", args.limit)
    rows = cross_half_anatomy(pages, ids, shipped_judge)
    result = {"summary": summary(rows), "pages": rows}
    print(json.dumps(result["summary"], indent=2))
    for row in sorted(rows, key=lambda r: r["f1"])[:40]:
        costs = " ".join(f"{name} {row['cost'][name]:.2f}" for name in CLASSES)
        print(f"{row['page']:>4} {row['split'][:28]:28} F1 {row['f1']:.3f}  {costs}  "
              f"true {row['true_lists']} extra {row['extra_lists']} missed {row['missed_lists']} "
              f"uncovered {row['uncovered_records']}/{row['truth_records']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
