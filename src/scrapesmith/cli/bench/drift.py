"""`scrapesmith bench drift`: programs forged on real pages, replayed after seeded layout mutations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.swde import default_swde_dir
from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import (
    JsonOutOption,
    NoCacheOption,
    llm_from_options,
    names_and_seeds,
    usage_error,
)
from scrapesmith.dom import MUTATIONS, VALUE_MUTATIONS


@bench_app.command("drift")
def bench_drift_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    sites: Annotated[str | None, typer.Option(help="Comma-separated site names (default: all).")] = None,
    mutations: Annotated[str, typer.Option(help="Mutation operators, comma-separated.")] = ",".join(MUTATIONS),
    mutation_seeds: Annotated[str, typer.Option("--mutation-seeds", help="Seeds of each operator, "
                                                                         "comma-separated.")] = "0,1,2",
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(min=1, help="Test pages per site (the next N).")] = 200,
    lists: Annotated[int, typer.Option("--lists", min=0, help="Also record list programs on this many NEXT-EVAL "
                                                               "pages and mutate them (0: off).")] = 0,
    nexteval: Annotated[Path | None, typer.Option(help="NEXT-EVAL html directory (default: beside SWDE, "
                                                       "next-eval/html).")] = None,
    demo: Annotated[bool, typer.Option("--demo", help="Also forge specs on the demo web's book sites and replay "
                                                      "them on its layout versions 1-5.")] = False,
    windows: Annotated[int, typer.Option("--windows", min=1, help="Also forge on the next seed windows of each "
                                                                  "site (pages 3-5, 6-8, …) and count false "
                                                                  "alarms on the pages as they are.")] = 1,
    evidence: Annotated[bool, typer.Option("--evidence/--no-evidence", help="Heal fields whose seed values are "
                                                                            "gone by the forging engine's evidence "
                                                                            "(as `heal` does).")] = True,
    llm: Annotated[str | None, typer.Option("--llm", help="Let this model choose where that evidence is split "
                                                          "(default: no model, as `heal`).")] = None,
    no_cache: NoCacheOption = False,
    json_out: JsonOutOption = None,
) -> None:
    """Specs forged on SWDE sites, replayed after seeded layout mutations: drift detection recall, false
    alarms on unchanged pages, share healed to F1 >= 0.95 against the forged output, model calls, seconds
    per heal; with --lists, the same for list programs recorded on NEXT-EVAL pages. --mutations formats
    also changes number formats, so seed values are gone: heal finds those fields by their evidence
    (--no-evidence: it does not), the model choosing where it is split with --llm."""
    from scrapesmith.bench.drift import DriftSettings, run_benchmark
    from scrapesmith.induce import EvidenceHeal

    chosen, numbers = names_and_seeds("--mutations", mutations, [*MUTATIONS, *VALUE_MUTATIONS], mutation_seeds)
    pages = pages or default_swde_dir()
    list_pages: tuple[Path, ...] = ()
    if lists:
        html = nexteval or pages.parent / "next-eval" / "html"
        list_pages = tuple(sorted(html.glob("*.html"), key=lambda p: (len(p.stem), p.stem))[:lists])
        if not list_pages:
            raise usage_error(f"--lists: no NEXT-EVAL pages in {html} (give --nexteval DIR)")
    model = llm_from_options(llm, no_cache) if llm else None
    settings = DriftSettings(pages, sites, chosen, numbers, seeds, test, list_pages, demo, windows,
                             EvidenceHeal(model) if evidence or model is not None else None)
    run_benchmark(settings, json_out, progress=lambda line: console.print(line, highlight=False))
