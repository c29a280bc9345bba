"""Drift on the command line: what a run prints when its output no longer looks as it did, its exit
status, and ``scrapesmith heal``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from scrapesmith.cli import app, console
from scrapesmith.cli.options import AllowHostOption, allowed_hosts, usage_error
from scrapesmith.drift import DriftReport
from scrapesmith.induce.heal import heal_from_sources, next_version_path
from scrapesmith.induce.views import ScraperSpec

DRIFT_EXIT = 3
"""The exit status of a run that finished but whose output drifted from its program's profile."""


def show_drift(report: DriftReport) -> None:
    """One line per drifted column; nothing when the output still looks as forged or was not checked."""
    if not report.checked:
        console.print("[dim]no output profile in this program (saved before profiles): drift not checked[/]",
                      highlight=False)
        return
    if not report.drifted:
        console.print(f"no drift: the output of {report.pages} pages looks as it did when forged", highlight=False)
        return
    console.print(f"[bold yellow]drift[/]: {len(report.drifts)} of the program's outputs changed "
                  f"(exit status {DRIFT_EXIT}; mend with `scrapesmith heal`)", highlight=False)
    for drift in report.drifts:
        console.print(f"  [yellow]{drift.check}[/] {drift.evidence}", highlight=False)


def exit_on_drift(report: DriftReport) -> None:
    """End a finished run with :data:`DRIFT_EXIT` when its output drifted, so a scheduler can act on it."""
    if report.drifted:
        raise typer.Exit(DRIFT_EXIT)


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
    for line in result.diff():
        console.print(escape(line), highlight=False)
    if not result.healed:
        console.print("nothing to heal: every field still reads its seed values" if not result.lost
                      else "no field could be healed; the spec is unchanged", highlight=False)
        if result.lost:
            raise typer.Exit(DRIFT_EXIT)
        return
    target = output or next_version_path(program)
    result.spec.save(target)
    validation = result.validation
    verdict = ("its output on these pages matches the old profile" if validation and not validation.drifted
               else "still drifted: " + "; ".join(d.evidence for d in validation.drifts) if validation else "")
    console.print(f"healed {', '.join(result.healed)}: {result.spec.spec_id} written to {target} "
                  f"(the old spec {spec.spec_id} is unchanged); {verdict}", highlight=False)
    if result.lost:
        raise typer.Exit(DRIFT_EXIT)
