"""``bench swde --mutate``: the SWDE development sites redrawn in other templates, forged from scratch.

The project is scored on SWDE sites it never saw, which differ from ours mostly in markup: tags, classes,
ids, nesting, label wording, order. :mod:`scrapesmith.dom.mutate` draws those differences on real pages —
the same seeded change on every page of a site, as another site's template would — and this runs the
whole induction on the redrawn seed pages and scores it on the redrawn test pages (no heal: this is
induction on a new template, not a program mended after a redesign). Each mutation kind is reported
apart, with the unmutated pages beside it, overall and per vertical.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from rich.progress import Progress

from scrapesmith.bench.frame import BenchResult, report
from scrapesmith.bench.metrics import summarize
from scrapesmith.bench.swde import (
    SiteRun,
    case_rows,
    discover_sites,
    parse_list,
    print_groups,
    read_page,
    run_sites,
)
from scrapesmith.dom import mutate_page
from scrapesmith.llm import LLM

UNMUTATED = "none"


def mutated_reader(kind: str, seed: int) -> Callable[[Path], str]:
    """A page reader that redraws every page with mutation ``kind`` under ``seed`` (``none``: as it is)."""
    if kind == UNMUTATED:
        return read_page
    return lambda path: mutate_page(read_page(path), kind, seed)


def kind_rows(runs_by_draw: dict[tuple[str, int], list[SiteRun]], key: Callable[[SiteRun], str]) -> list[dict]:
    """Strict figures per mutation kind (over all its seeds) and group of sites (``key``: all, a vertical)."""
    rows = []
    for kind in dict.fromkeys(k for k, _ in runs_by_draw):
        runs = [r for (k, _), draw in runs_by_draw.items() if k == kind for r in draw]
        for group in dict.fromkeys(key(r) for r in runs):
            strict = summarize([c for r in runs if key(r) == group for c in r.strict.values()])
            rows.append({"group": f"{kind} {group}".strip(), "kind": kind, "cases": strict["cases"],
                         "correct_ratio": strict["correct_ratio"], "f1": strict["f1"],
                         "precision": strict["precision"], "recall": strict["recall"]})
    return rows


def run_mutated(pages: Path, groundtruth: Path, sites: str | None, attributes: str | None, seeds: int,
                test: int, method: str, llm: LLM | None, kinds: Sequence[str], mutation_seeds: Sequence[int],
                json_out: Path | None, progress_factory: Callable[[], Progress]) -> BenchResult:
    """Every site under every (kind, seed) draw, and once as it is; one report."""
    chosen = discover_sites(pages, parse_list(sites))
    draws = [(UNMUTATED, 0), *((k, s) for k in kinds for s in mutation_seeds)]
    runs_by_draw: dict[tuple[str, int], list[SiteRun]] = {}
    cases = []
    with progress_factory() as progress:
        task = progress.add_task("mutations", total=len(draws))
        for kind, seed in draws:
            progress.update(task, description=f"{kind} (seed {seed})")
            run = partial(run_sites, chosen, groundtruth, attributes, seeds, test, method, llm, progress)
            runs, _ = run(mutated_reader(kind, seed))
            runs_by_draw[kind, seed] = runs
            cases += [{"mutation": kind, "mutation_seed": seed, **row} for row in case_rows(runs)]
            progress.advance(task)
    overall = kind_rows(runs_by_draw, lambda r: "")
    verticals = kind_rows(runs_by_draw, lambda r: r.site.vertical)
    summary: dict[str, float | int | str] = {}
    for row in overall:
        summary[f"{row['kind']}_correct_ratio"] = row["correct_ratio"]
        summary[f"{row['kind']}_f1"] = row["f1"]
    per_draw = [{"mutation": k, "mutation_seed": s, **{x: v for x, v in summarize(
        [c for r in draw for c in r.strict.values()]).items() if x in ("cases", "correct_ratio", "f1")}}
        for (k, s), draw in runs_by_draw.items()]
    result = BenchResult(
        name=f"swde mutated ({method})", summary=summary, cases=cases,
        params={"pages": str(pages), "groundtruth": str(groundtruth), "seeds": seeds, "test": test,
                "method": method, "llm": getattr(llm, "name", "none"), "mutations": list(kinds),
                "mutation_seeds": list(mutation_seeds), "per_kind": overall, "per_kind_vertical": verticals,
                "per_draw": per_draw},
    )
    report(result, json_out)
    print_groups(f"{result.name}: per kind", overall)
    print_groups(f"{result.name}: per kind and vertical", verticals)
    return result
