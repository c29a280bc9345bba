"""Before → after of two ``bench swde --mutate … --json`` files, per mutation kind and group of sites.

For each kind (over all its mutation seeds) and each named group of sites: Correct / F1 (strict) and the
lenient Correct, before → after; ``--verticals`` adds each vertical of the listed ones, so "no kind lower on
any vertical" reads off one table. Sites of a held-out vertical are read only through a group's total.

    python research/swde_kind_groups.py bench/results/swde-issue28f-mutated-after.json \\
        bench/results/swde-issue28g-mutated-after.json \\
        --group all9= --group dev7=book-amazon,book-booksamillion,job-dice,nbaplayer-espn,restaurant-fodors,movie-imdb,university-usnews \\
        --verticals book,job,movie,nbaplayer,restaurant,university

Journal: docs/journal/benchmarks.md, "Issue 28 (2026-11-27, round 7): values cut in two by inline markup".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path


def figures(cases: Sequence[dict]) -> str:
    if not cases:
        return "-"
    count = len(cases)
    correct = sum(c["category"] == "correct" for c in cases) / count
    f1 = sum(c["f1"] for c in cases) / count
    lenient = sum(c["lenient_category"] == "correct" for c in cases) / count
    return f"{correct:.3f} / {f1:.3f} ({lenient:.3f})"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--group", action="append", default=[],
                        help="NAME=SITE,SITE (repeatable); NAME= alone: every site in the files")
    parser.add_argument("--verticals", default="", help="also these verticals, one row each (comma-separated)")
    args = parser.parse_args(argv)
    runs = [json.loads(path.read_text())["cases"] for path in (args.before, args.after)]
    groups: list[tuple[str, set[str] | None]] = []
    for spec in args.group:
        name, _, sites = spec.partition("=")
        groups.append((name, {s for s in sites.split(",") if s} or None))
    groups += [(v, {c["site"] for c in runs[0] if c["site"].split("-")[0] == v})
               for v in args.verticals.split(",") if v]
    kinds = list(dict.fromkeys(c["mutation"] for c in runs[0]))
    print("kind | group | Correct / F1 (lenient Correct): before -> after")
    for kind in kinds:
        for name, sites in groups:
            cells = [figures([c for c in cases if c["mutation"] == kind and (sites is None or c["site"] in sites)])
                     for cases in runs]
            print(f"{kind} | {name} | {cells[0]} -> {cells[1]}")


if __name__ == "__main__":
    main()
