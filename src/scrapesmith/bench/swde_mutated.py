"""``bench swde --mutate``: the SWDE development sites redrawn in other templates, forged from scratch.

The project is scored on SWDE sites it never saw, which differ from ours mostly in markup: tags, classes,
ids, nesting, label wording, order. :mod:`scrapesmith.dom.mutate` draws those differences on real pages —
the same seeded change on every page of a site, as another site's template would — and this runs the
whole induction on the redrawn seed pages and scores it on the redrawn test pages (no heal: this is
induction on a new template, not a program mended after a redesign). Each mutation kind is reported
apart, with the unmutated pages beside it, overall, per vertical and per site, each with the model calls and
tokens it took (``--method choose`` asks the model on every draw anew).
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


def kind_rows(runs_by_draw: dict[tuple[str, int], list[SiteRun]], calls_by_draw: dict[tuple[str, int], list[dict]],
              key: Callable[[SiteRun], str]) -> list[dict]:
    """Strict figures and model use per mutation kind (over all its seeds) and group of sites (``key``: all,
    a vertical, a site)."""
    rows = []
    for kind in dict.fromkeys(k for k, _ in runs_by_draw):
        draws = [d for d in runs_by_draw if d[0] == kind]
        runs = [r for d in draws for r in runs_by_draw[d]]
        for group in dict.fromkeys(key(r) for r in runs):
            strict = summarize([c for r in runs if key(r) == group for c in r.strict.values()])
            used = [c for d in draws for r, c in zip(runs_by_draw[d], calls_by_draw[d], strict=True)
                    if key(r) == group]
            rows.append({"group": f"{kind} {group}".strip(), "kind": kind, "cases": strict["cases"],
                         "correct_ratio": strict["correct_ratio"], "f1": strict["f1"],
                         "precision": strict["precision"], "recall": strict["recall"],
                         "llm_calls": sum(c["llm_calls"] for c in used),
                         "tokens": sum(c["input_tokens"] + c["output_tokens"] for c in used)})
    return rows


def run_mutated(pages: Path, groundtruth: Path, sites: str | None, attributes: str | None, seeds: int,
                test: int, method: str, llm: LLM | None, kinds: Sequence[str], mutation_seeds: Sequence[int],
                json_out: Path | None, progress_factory: Callable[[], Progress]) -> BenchResult:
    """Every site under every (kind, seed) draw, and once as it is; one report."""
    chosen = discover_sites(pages, parse_list(sites))
    draws = [(UNMUTATED, 0), *((k, s) for k in kinds for s in mutation_seeds)]
    runs_by_draw: dict[tuple[str, int], list[SiteRun]] = {}
    calls_by_draw: dict[tuple[str, int], list[dict]] = {}
    cases = []
    with progress_factory() as progress:
        task = progress.add_task("mutations", total=len(draws))
        for kind, seed in draws:
            progress.update(task, description=f"{kind} (seed {seed})")
            run = partial(run_sites, chosen, groundtruth, attributes, seeds, test, method, llm, progress)
            runs, calls = run(mutated_reader(kind, seed))
            runs_by_draw[kind, seed], calls_by_draw[kind, seed] = runs, calls
            cases += [{"mutation": kind, "mutation_seed": seed, **row} for row in case_rows(runs)]
            progress.advance(task)
    overall = kind_rows(runs_by_draw, calls_by_draw, lambda r: "")
    verticals = kind_rows(runs_by_draw, calls_by_draw, lambda r: r.site.vertical)
    sites_rows = kind_rows(runs_by_draw, calls_by_draw, lambda r: r.site.key)
    summary: dict[str, float | int | str] = {}
    for row in overall:
        for figure in ("correct_ratio", "f1", "llm_calls", "tokens"):
            summary[f"{row['kind']}_{figure}"] = row[figure]
    per_draw = [{"mutation": k, "mutation_seed": s, **{x: v for x, v in summarize(
        [c for r in draw for c in r.strict.values()]).items() if x in ("cases", "correct_ratio", "f1")}}
        for (k, s), draw in runs_by_draw.items()]
    result = BenchResult(
        name=f"swde mutated ({method})", summary=summary, cases=cases,
        params={"pages": str(pages), "groundtruth": str(groundtruth), "seeds": seeds, "test": test,
                "method": method, "llm": getattr(llm, "name", "none"), "mutations": list(kinds),
                "mutation_seeds": list(mutation_seeds), "per_kind": overall, "per_kind_vertical": verticals,
                "per_draw": per_draw, "per_kind_site": sites_rows,
                "calls_per_draw": [{"mutation": k, "mutation_seed": s, **c}
                                   for (k, s), calls in calls_by_draw.items() for c in calls],
                "specs": {f"{k} {s} {r.site.key}": r.spec.model_dump()
                          for (k, s), runs in runs_by_draw.items() for r in runs}},
    )
    report(result, json_out)
    print_groups(f"{result.name}: per kind", overall)
    print_groups(f"{result.name}: per kind and vertical", verticals)
    print_groups(f"{result.name}: per kind and site", sites_rows)
    return result
