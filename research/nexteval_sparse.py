"""Fewer fitted constants for NEXT-EVAL record detection, each variant scored on pages it never saw.

Issue 34 (2026-11-27): the shipped models weigh 29 + 13 fitted features. Every variant of
``research/analysis/nexteval_sparse.py`` is fitted on the training pages of a split — and everything it
chooses (the features, their number, their signs) is chosen there — then scored on the pages held out:
the four cross-half directions (first/second half, odd/even pages) and leave-group-out (runs of 10
consecutive pages). One line per variant: in-sample, cross-half (pages under 0.5 of 200),
leave-group-out, the in-sample − held-out gaps, and its constants (weights fitted to labels with the
intercepts; standardisation means and scales). ``--groups`` first prints how alike pages are within and
across the leave-group-out runs (shared class names), to tell whether those runs follow sites.

Run: ``python research/nexteval_sparse.py [--variants …] [--json OUT]`` (no model, no browser; several
minutes a variant on 2 cores — run it under ``flock /tmp/scrapesmith-model.lock``).

Journal: docs/journal/benchmarks.md, "Issue 34 (2026-11-27): fewer fitted constants for NEXT-EVAL record detection, every choice nested (34g)".
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path

import numpy as np

from analysis.nexteval_sparse import (
    SIZES,
    Choice,
    Fitter,
    bagged_fitter,
    estimate,
    l1_fitter,
    nested_sparse_fitter,
    shipped_fitter,
    signed_fitter,
    sparse_fitter,
)
from scrapesmith.bench.nexteval import page_ids
from scrapesmith.bench.nexteval_fit import GROUP_SIZE, load_pages
from scrapesmith.dom import parse_html

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
NESTED_CHOICES: dict[str, Choice] = {"sparse k nested": Choice([]), "sparse k nested, model 2 sparse": Choice([])}


def variants() -> dict[str, Fitter]:
    table: dict[str, Fitter] = {"shipped (29 + 13), C 0.03": shipped_fitter(0.03)}
    for k in SIZES:
        table[f"sparse k={k} + model 2 (13)"] = sparse_fitter(k)
        table[f"sparse k={k} + model 2 k={min(k, 13)}"] = sparse_fitter(k, k)
    for k in SIZES:
        table[f"L1 path k={k} + model 2 (13)"] = l1_fitter(k)
    table["signed 9 + model 2 (13)"] = signed_fitter()
    table["signed 9 + model 2 k=5"] = signed_fitter(second=5)
    table["equal weights 9 + model 2 (13)"] = signed_fitter(equal=True)
    table["equal weights 9 + model 2 k=3"] = signed_fitter(equal=True, second=3)
    table["bagged over page runs x5 + model 2"] = bagged_fitter()
    table["shipped (29 + 13), C nested"] = shipped_fitter(None)
    table["sparse k nested"] = nested_sparse_fitter(record=NESTED_CHOICES["sparse k nested"])
    table["sparse k nested, model 2 sparse"] = nested_sparse_fitter(
        sparse_second=True, record=NESTED_CHOICES["sparse k nested, model 2 sparse"]
    )
    return table


def class_names(path: Path) -> set[str]:
    root = parse_html(path.read_bytes())
    return {word for node in root.iter() if isinstance(node.tag, str) for word in (node.get("class") or "").split()}


def group_report(html_dir: Path, truth_dir: Path) -> list[str]:
    """Jaccard index of class-name sets for page pairs inside one leave-group-out run and across runs,
    and the most alike pairs: runs that followed sites would share far more names inside than across."""
    ids = page_ids(html_dir, truth_dir)
    names = {page: class_names(html_dir / f"{page}.html") for page in ids}
    inside, across, pairs = [], [], []
    for (i, a), (j, b) in combinations(enumerate(ids), 2):
        union = names[a] | names[b]
        jaccard = len(names[a] & names[b]) / len(union) if union else 0.0
        (inside if i // GROUP_SIZE == j // GROUP_SIZE else across).append(jaccard)
        pairs.append((jaccard, a, b))
    top = ", ".join(f"{a}–{b} {jaccard:.2f}" for jaccard, a, b in sorted(pairs, reverse=True)[:8])
    return [
        (
            f"class-name Jaccard, pairs inside a run of {GROUP_SIZE}: mean {np.mean(inside):.4f} "
            f"(max {max(inside):.2f}, {len(inside)} pairs); across runs: mean {np.mean(across):.4f} "
            f"(max {max(across):.2f}, {len(across)} pairs)"
        ),
        f"most alike pairs: {top}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--groundtruth", type=Path, default=DATA / "groundtruth")
    parser.add_argument("--variants", help="comma-separated names (default: all)")
    parser.add_argument("--groups", action="store_true", help="first say whether the runs of pages follow sites")
    parser.add_argument("--limit", type=int, help="only the first N pages (a quick check; the figures need all)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    table = variants()
    names = args.variants.split(",") if args.variants else list(table)
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(unknown)}; known: {', '.join(table)}")
    results: dict[str, object] = {}
    if args.groups:
        lines = group_report(args.html, args.groundtruth)
        print("\n".join(lines), flush=True)
        results["groups"] = lines
    pages = load_pages(args.html, args.groundtruth, args.limit)
    for name in names:
        row = estimate(pages, table[name]).as_dict()
        if name in NESTED_CHOICES:
            row["k_chosen"] = NESTED_CHOICES[name].picks
        results[name] = row
        print(
            f"{name:38s} in-sample {row['in_sample']:.4f}  cross-half {row['cross_half']:.4f} "
            f"({row['cross_half_under']} < 0.5)  leave-group-out {row['leave_group_out']:.4f}  gaps "
            f"{row['gap_cross_half']:.4f} / {row['gap_leave_group_out']:.4f}  constants "
            f"{row['fitted_constants']} fitted + {row['standardising_constants']} standardising"
            + (f"  k chosen {row['k_chosen']}" if "k_chosen" in row else ""),
            flush=True,
        )
        if args.json:
            args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
