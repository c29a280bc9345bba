"""Drift on the command line, shared by ``run``, ``replay``, ``heal`` and a collection's rerun: what a run
prints when its output no longer looks as it did, its exit status, and saving a healed version beside the
old (the ``heal`` command is in ``cli/heal.py``, ``bench drift`` in ``cli/bench/drift.py``)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from scrapesmith.cli import console
from scrapesmith.cli.options import allowed_hosts
from scrapesmith.drift import DriftReport
from scrapesmith.induce import HealResult, next_version_path
from scrapesmith.lists import ListProgram, heal_list_program, make_runtimes
from scrapesmith.web import saved_root

DRIFT_EXIT = 3
"""The exit status of a run that finished but whose output drifted from its program's profile."""


def show_drift(report: DriftReport, pages: int | None = None, heal_with: str = "`scrapesmith heal`") -> None:
    """One line per drifted column, or one line saying there is no drift or that it was not checked.

    The report counts rows; ``pages`` is how many pages (or start pages) gave them: a spec's run reads a row
    a page ("5 pages"), a list many ("24 rows from 1 page", never "24 pages")."""
    if not report.checked:
        console.print("[dim]no output profile in this program (saved before profiles): drift not checked[/]",
                      highlight=False)
        return
    if not report.drifted:
        read = (_count(report.pages, "row") if pages is None else _count(pages, "page") if pages == report.pages
                else f"{_count(report.pages, 'row')} from {_count(pages, 'page')}")
        console.print(f"no drift: the output of {read} looks as it did when forged", highlight=False)
        return
    console.print(f"[bold yellow]drift[/]: {len(report.drifts)} of the program's outputs changed "
                  f"(exit status {DRIFT_EXIT}; mend with {heal_with})", highlight=False)
    for drift in report.drifts:
        console.print(f"  [yellow]{drift.check}[/] {drift.evidence}", highlight=False)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def exit_on_drift(report: DriftReport) -> None:
    """End a finished run with :data:`DRIFT_EXIT` when its output drifted, so a scheduler can act on it."""
    if report.drifted:
        raise typer.Exit(DRIFT_EXIT)


def save_healed(result: HealResult, program: Path, output: Path | None = None) -> Path | None:
    """Print the selector diff; save the healed version beside ``program`` (never over it) and return its
    path, or None when nothing was healed."""
    for line in result.diff():
        console.print(escape(line), highlight=False)
    if not result.healed:
        console.print(not_healed(result, program), highlight=False)
        return None
    target = output or next_version_path(program)
    result.spec.save(target)
    validation = result.validation
    verdict = (f"its output on {result.pages} matches the old profile" if validation and not validation.drifted
               else "still drifted: " + "; ".join(d.evidence for d in validation.drifts) if validation else "")
    console.print(f"healed {', '.join(result.healed)} on {result.pages}: {result.spec.spec_id} written to {target} "
                  f"(the old spec {result.spec.healed_from} is unchanged); {verdict}", highlight=False)
    return target


def not_healed(result: HealResult, program: Path) -> str:
    """Why no new version was written, in the terms of the pages it looked at; a selector found again where
    it was is never called healed."""
    if result.lost:
        return f"not healed: {', '.join(result.lost)} not found again on {result.pages}; the spec is unchanged"
    if result.drifted:
        evidence = "; ".join(d.evidence for d in result.validation.drifts) if result.validation else "drifted"
        return (f"not healed: on {result.pages} its output drifted ({evidence}), and no other selector reads "
                "them as the seeds were read; the spec is unchanged")
    if result.from_seeds:
        return (f"no changed pages: on {result.pages} every field reads as it did when forged; name the pages "
                f"that changed, or the drifted run's directory (scrapesmith heal {program} OUTPUT.run)")
    return f"nothing to heal: on {result.pages} the spec's output looks as it did when forged"


def heal_exit(result: HealResult) -> int:
    """``heal``'s exit status: 0 when a new version was written or the pages named need none; 3
    (:data:`DRIFT_EXIT`) when a field could not be healed, the output still drifts, or no changed pages were
    found to heal on."""
    if result.lost or (not result.healed and (result.drifted or result.from_seeds)):
        return DRIFT_EXIT
    return 0


def heal_list(old: ListProgram, path: Path, start_url: str | None, runtime: str, allow_host: list[str] | None,
              delay: float | None, output: Path | None = None) -> Path | None:
    """Record a drifted list program again (:mod:`scrapesmith.lists.heal`); save the new version beside the old
    and return its path, or None when nothing was needed or it did not heal (said on the console)."""
    saved = saved_root([start_url or old.start_url])
    with make_runtimes(runtime, allowed_hosts(allow_host), delay, saved=saved, base_url=old.base_url) as runtimes:
        result = heal_list_program(old, runtimes, start_url)
    if not result.needed:
        console.print("nothing to heal: the program's replay still looks as when it was recorded", highlight=False)
        return None
    for line in result.diff(old):
        console.print(escape(line), highlight=False)
    found = f"{result.rows_found_again} of the {result.rows_kept} rows it was recorded with read again"
    if not result.healed:
        console.print("not healed: the list recorded again does not look like the old one either ("
                      + "; ".join(d.evidence for d in result.validation.drifts) + f"); {found}", highlight=False)
        return None
    target = output or next_version_path(path)
    result.program.save(target)
    console.print(f"healed: program {result.program.program_id} written to {target} (the old program "
                  f"{old.program_id} is unchanged); its replay matches the old profile; {found}", highlight=False)
    return target


def heal_collection(program: Path, allow_host: list[str] | None, delay: float | None,
                    output: Path | None = None) -> Path | None:
    """Record the list program inside a collection's ``program.py`` again (:mod:`scrapesmith.collect.heal`);
    save the new program beside the old (``program.v2.py``, in the same run directory) and return its path,
    or None when nothing was needed or it did not heal (said on the console)."""
    from scrapesmith.collect import CollectionHealError, check_runnable, heal_collection_program

    hosts = allowed_hosts(allow_host)
    check_runnable(program, hosts)  # the hosts it reads are allowed by the user, as for its rerun
    try:
        with make_runtimes("http", hosts, delay) as runtimes:
            result = heal_collection_program(program, runtimes)
    except CollectionHealError as exc:  # a table or API program: said, and the drift stands
        console.print(f"not healed: {exc}", highlight=False)
        return None
    if not result.heal.needed:
        console.print("nothing to heal: its list still reads as it did when the collection was made",
                      highlight=False)
        return None
    for line in result.heal.diff(result.old):
        console.print(escape(line), highlight=False)
    found = f"{result.heal.rows_found_again} of {result.heal.rows_kept} rows of its dataset read again"
    if not result.healed:
        console.print("not healed: the list recorded again does not look like the collection's dataset either ("
                      + "; ".join(d.evidence for d in result.heal.validation.drifts) + f"); {found}",
                      highlight=False)
        return None
    target = output or next_version_path(program)
    target.write_text(result.text, encoding="utf-8")
    console.print(f"healed: its list program recorded again, written to {target} ({program} is unchanged); "
                  f"{found}; rerun with `scrapesmith run {target}`", highlight=False)
    return target
