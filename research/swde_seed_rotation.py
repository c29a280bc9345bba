"""Seed rotation on the SWDE development sites: induce from pages K..K+2 of each site, score the other seven.

``bench swde`` always induces from the first pages; this asks whether the figures hold when the seeds are
other pages of the same sites (pages a change was never looked at with as seeds), with the same metric.

    python research/swde_seed_rotation.py --pages ../shared/data/swde --offsets 0 3 6
    python research/swde_seed_rotation.py --pages ../shared/data/swde --offsets 0 3 6 --examples 1

``--examples N``: the example path instead (``bench swde --examples N``): each field learnt from the ground
truth's values on the first N seed pages of the window.

Journal: docs/journal/benchmarks.md, "No model: `scrapesmith bench swde --method heuristic --seeds 3 --test 7`".
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from scrapesmith.bench.metrics import summarize
from scrapesmith.bench.swde import (
    SiteRun,
    discover_sites,
    example_spec,
    load_groundtruth,
    read_page,
    requests_for,
    score_site,
)
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.service import induce_scraper

PAGES_PER_SITE = 10
SEEDS = 3


def rotation(pages: Path, offset: int, examples: int = 0) -> tuple[dict, list[str]]:
    """The strict summary over every site with seeds ``pages[offset:offset+3]``, and the cases not Correct."""
    cases, wrong = [], []
    for site in discover_sites(pages):
        paths = site.page_paths()[:PAGES_PER_SITE]
        seeds = paths[offset:offset + SEEDS]
        test = [p for p in paths if p not in seeds]
        requests = requests_for(site)
        truth = {r.name: load_groundtruth(pages / "groundtruth" / site.vertical / f"{site.key}-{r.name}.txt")
                 for r in requests}
        trees = [parse_for_replay(read_page(p)) for p in seeds]
        if examples:
            spec = example_spec(site, pages / "groundtruth", requests, trees, [p.name for p in seeds], examples)
        else:
            spec = induce_scraper(requests, trees, site=site.key)
        run = SiteRun(site, spec)
        score_site(spec, [read_page(p) for p in test], [p.stem for p in test], truth, run)
        cases += list(run.strict.values())
        wrong += [f"{site.key}:{name}:{case.category}" for name, case in run.strict.items() if case.category != "correct"]
    return summarize(cases), wrong


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, default=Path("../shared/data/swde"))
    parser.add_argument("--offsets", type=int, nargs="+", default=[0, 3, 6])
    parser.add_argument("--examples", type=int, default=0, help="learn each field from the values of N seed pages")
    args = parser.parse_args(argv)
    for offset in args.offsets:
        summary, wrong = rotation(args.pages, offset, args.examples)
        print(f"seeds {offset:04d}-{offset + SEEDS - 1:04d}: Correct {summary['correct_ratio']:.4f}  "
              f"F1 {summary['f1']:.4f}  not Correct: {', '.join(wrong)}")


if __name__ == "__main__":
    main()
