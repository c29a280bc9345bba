"""``scrapesmith heal`` (mend a spec whose site changed) and ``scrapesmith bench drift``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.bench.mutations import MUTATIONS
from scrapesmith.bench.swde import default_swde_dir
from scrapesmith.cli import app, bench_app, console
from scrapesmith.cli.drift import DRIFT_EXIT, save_healed
from scrapesmith.cli.options import AllowHostOption, JsonOutOption, allowed_hosts, usage_error
from scrapesmith.induce.heal import heal_from_sources
from scrapesmith.induce.views import ScraperSpec


@app.command("heal")
def heal_command(
    program: Annotated[Path, typer.Argument(help="A scraper spec (.json) whose site changed.")],
    pages: Annotated[list[str] | None, typer.Argument(help="The seed pages as they are now, in the spec's seed "
                                                           "order (default: fetch the spec's seeds again).")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write the new version "
                                                "(default: beside the spec, as NAME.v2.json).")] = None,
    allow_host: AllowHostOption = None,
) -> None:
    """Mend a spec whose site changed: find each broken field again from the seed values it kept, and
    write a new version beside the old (never over it), with the selector diff and a check of the new
    output against the old profile. No model. Exit status 3 when a field could not be healed."""
    if program.suffix.lower() != ".json":
        raise usage_error(f"{program}: heal takes a scraper spec (.json)")
    spec = ScraperSpec.load(program)
    result = heal_from_sources(spec, pages or [], allowed_hosts(allow_host))
    save_healed(result, program, output)
    if result.lost:
        raise typer.Exit(DRIFT_EXIT)


@bench_app.command("drift")
def bench_drift_command(
    pages: Annotated[Path | None, typer.Option(help="SWDE pages: DIR/<vertical>/<vertical>-<site>/NNNN.htm.")] = None,
    sites: Annotated[str | None, typer.Option(help="Comma-separated site names (default: all).")] = None,
    mutations: Annotated[str, typer.Option(help="Mutation operators, comma-separated.")] = ",".join(MUTATIONS),
    mutation_seeds: Annotated[str, typer.Option("--mutation-seeds", help="Seeds of each operator, "
                                                                         "comma-separated.")] = "0,1,2",
    seeds: Annotated[int, typer.Option(min=1, help="Seed pages per site (the first N).")] = 3,
    test: Annotated[int, typer.Option(min=1, help="Test pages per site (the next N).")] = 200,
    json_out: JsonOutOption = None,
) -> None:
    """Specs forged on SWDE sites, replayed after seeded layout mutations: drift detection recall, false
    alarms on unchanged pages, share healed to F1 >= 0.95 against the forged output, model calls, seconds
    per heal."""
    from scrapesmith.bench.drift import DriftSettings, run_benchmark

    chosen = tuple(m.strip() for m in mutations.split(",") if m.strip())
    if not chosen or set(chosen) - set(MUTATIONS):
        raise usage_error(f"--mutations takes {', '.join(MUTATIONS)}, not {mutations!r}")
    try:
        numbers = tuple(int(s) for s in mutation_seeds.split(",") if s.strip())
    except ValueError:
        raise usage_error(f"--mutation-seeds takes whole numbers separated by commas, not {mutation_seeds!r}") from None
    if not numbers:
        raise usage_error("--mutation-seeds needs at least one seed")
    settings = DriftSettings(pages or default_swde_dir(), sites, chosen, numbers, seeds, test)
    run_benchmark(settings, json_out, progress=lambda line: console.print(line, highlight=False))
