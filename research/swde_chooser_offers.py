"""Which of the chooser's offers the label gate removes, without the model: for each mutation draw, site
and field, the options ``--method choose`` would show (the evidence's distinct trusted candidates) with and
without :func:`scrapesmith.induce.choose.offered`. Where nothing is removed and the model never answered
``none``, a ``--method choose`` run gives the same spec before and after the gate (issue 28, round 8).

    python research/swde_chooser_offers.py --pages ../shared/data/swde --draws labels:0,combined:0,split:0

Journal: docs/journal/benchmarks.md, "Issue 28 (2026-11-27): round 8 — the model under other templates, and its gate".
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from scrapesmith.bench.swde import discover_sites, parse_for_replay, requests_for
from scrapesmith.bench.swde_mutated import mutated_reader
from scrapesmith.induce.choose import distinct_options, offered, option_line
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import rank_candidates, trusted


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=Path, required=True)
    parser.add_argument("--draws", default="none:0", help="KIND:SEED, comma-separated")
    parser.add_argument("--sites", default="")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    removed = 0
    for draw in args.draws.split(","):
        kind, seed = draw.split(":")
        reader = mutated_reader(kind, int(seed))
        for site in discover_sites(args.pages, [s for s in args.sites.split(",") if s]):
            paths = site.page_paths()[: args.seeds]
            seeds = [parse_for_replay(reader(p)) for p in paths]
            for request in requests_for(site, []):
                concept = concept_for(request.name, request.instruction)
                ranked = [s for s in rank_candidates(concept, seeds, [p.name for p in paths]) if trusted(s, len(seeds))]
                before, after = distinct_options(ranked), distinct_options(offered(ranked, concept))
                if [o.candidate.key for o in before] != [o.candidate.key for o in after]:
                    removed += 1
                    gone = [option_line(o) for o in before if o not in after]
                    print(f"{kind} {seed} {site.key} {request.name}: {len(before)} -> {len(after)} options; "
                          f"not offered: {gone}")
    print(f"fields whose offer changed: {removed}")


if __name__ == "__main__":
    main()
