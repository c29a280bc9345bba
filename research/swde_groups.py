"""Figures of a saved ``bench swde`` JSON per vertical, per site and for chosen groups of sites.

Runs made before ``bench swde`` printed its own per-vertical table, and the held-out split of a run (the
sites a change was tuned on against the sites it was not), are read back from the JSON's cases with the
same metric: the Correct ratio and the macro P/R/F1 over site-attributes.

    python research/swde_groups.py bench/results/swde-issue28-before-heuristic.json \\
        --group tuned=auto-msn,book-amazon,book-booksamillion,movie-imdb,restaurant-fodors \\
        --group held-out=camera-amazon,job-dice,nbaplayer-espn,university-usnews

Journal: docs/journal/benchmarks.md, "No model: `scrapesmith bench swde --method heuristic --seeds 3 --test 7`".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path


def figures(cases: Sequence[dict]) -> dict[str, float | int]:
    count = len(cases)
    if not count:
        return {"cases": 0, "correct": 0.0, "f1": 0.0, "precision": 0.0, "recall": 0.0}
    return {"cases": count, "correct": round(sum(c["category"] == "correct" for c in cases) / count, 4),
            **{name: round(sum(c[name] for c in cases) / count, 4) for name in ("f1", "precision", "recall")}}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", type=Path, help="a JSON written by scrapesmith bench swde --json")
    parser.add_argument("--group", action="append", default=[], metavar="NAME=SITE,SITE",
                        help="a named group of sites (repeatable)")
    args = parser.parse_args(argv)
    cases = json.loads(args.result.read_text())["cases"]
    rows = {"all": figures(cases)}
    for vertical in sorted({c["site"].split("-", 1)[0] for c in cases}):
        rows[vertical] = figures([c for c in cases if c["site"].split("-", 1)[0] == vertical])
    for site in sorted({c["site"] for c in cases}):
        rows[site] = figures([c for c in cases if c["site"] == site])
    for group in args.group:
        name, _, sites = group.partition("=")
        chosen = {s.strip() for s in sites.split(",") if s.strip()}
        rows[name] = figures([c for c in cases if c["site"] in chosen])
    print(f"{'group':28} {'cases':>5} {'correct':>8} {'F1':>7} {'P':>7} {'R':>7}")
    for name, row in rows.items():
        print(f"{name:28} {row['cases']:>5} {row['correct']:>8.4f} {row['f1']:>7.4f} {row['precision']:>7.4f} "
              f"{row['recall']:>7.4f}")


if __name__ == "__main__":
    main()
