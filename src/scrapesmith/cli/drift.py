"""Drift on the command line: what a run prints when its output no longer looks as it did, and its exit
status (``heal`` and ``bench drift`` are in ``cli/heal.py``)."""

from __future__ import annotations

import typer

from scrapesmith.cli import console
from scrapesmith.drift import DriftReport

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
