"""Where record detection loses F1 on pages its fit never saw: the error anatomy of the cross-half runs.

Issue 34: every estimate from NEXT-EVAL pages 1-100 stays above the figure on pages kept aside. Each
two-way split of :func:`scrapesmith.bench.nexteval_fit.half_splits` fits both models (the penalty chosen
inside the training half, as ``bench nexteval --fit`` does) on one half and detects on the other; each
scored page's loss is split into the main list, extra lists, missed lists and item boundaries
(:mod:`scrapesmith.bench.nexteval_anatomy`). ``bench nexteval --fit`` prints the totals; this script
lists every scored page, worst first, and saves them, with the same classes in-sample (both models fitted on
every page, as shipped) for comparison.

Run: ``python research/nexteval_anatomy.py [--limit N] [--json OUT]`` (a few minutes on 2 cores; no model,
no browser).

Journal: docs/journal/benchmarks.md, "1. Error anatomy on held-out halves".
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from scrapesmith.bench.nexteval import page_ids
from scrapesmith.bench.nexteval_anatomy import ERROR_CLASSES
from scrapesmith.bench.nexteval_fit import (
    LOW_F1,
    cross_half_anatomies,
    fit_models,
    half_splits,
    load_pages,
    page_anatomies,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    html, truth = args.data / "html", args.data / "groundtruth"
    ids = page_ids(html, truth)[: args.limit]
    pages = load_pages(html, truth, args.limit)
    rows = [
        {"split": name, "page": ids[i], **asdict(anatomy)}
        for (name, anatomies), (_, _, test) in zip(cross_half_anatomies(pages), half_splits(len(pages)), strict=True)
        for i, anatomy in zip(test, anatomies, strict=True)
    ]
    fitted_here = page_anatomies(pages, fit_models(pages))
    summary = {
        "in_sample_mean_cost": {
            name: float(np.mean([anatomy.costs[name] for anatomy in fitted_here])) for name in ERROR_CLASSES
        },
        "in_sample_f1": float(np.mean([anatomy.f1 for anatomy in fitted_here])),
        "pages_scored": len(rows),
        "cross_half_f1": float(np.mean([row["f1"] for row in rows])),
        "under_half": sum(1 for row in rows if row["f1"] < LOW_F1),
        "mean_cost": {name: float(np.mean([row["costs"][name] for row in rows])) for name in ERROR_CLASSES},
        "pages_losing": {name: sum(1 for row in rows if row["costs"][name] > 0.01) for name in ERROR_CLASSES},
    }
    print(json.dumps(summary, indent=1))
    for row in sorted(rows, key=lambda r: r["f1"])[:40]:
        costs = " ".join(f"{name} {row['costs'][name]:.2f}" for name in ERROR_CLASSES)
        print(f"{row['page']:>4} {row['split'][:30]:30} F1 {row['f1']:.3f}  {costs}  "
              f"extra {row['extra_lists']} missed {row['missed_lists']}")
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "pages": rows}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
