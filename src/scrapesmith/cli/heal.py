"""``scrapesmith heal``: mend a spec or a list program whose site changed, as a new version beside the old."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.artifacts import read_artifact_text
from scrapesmith.cli import app, console
from scrapesmith.cli.drift import DRIFT_EXIT, heal_collection, heal_exit, heal_list, save_healed
from scrapesmith.cli.options import AllowHostOption, DelayOption, allowed_hosts, llm_from_options, usage_error
from scrapesmith.induce import EvidenceHeal, ScraperSpec, SpecError, heal_from_sources
from scrapesmith.lists import ListProgram
from scrapesmith.llm import Ledger


@app.command("heal")
def heal_command(
    program: Annotated[Path, typer.Argument(help="A scraper spec or a list program (.json), or a collection's "
                                                 "program.py, whose site changed.")],
    pages: Annotated[list[str] | None, typer.Argument(help="A spec's changed pages: the run directory "
                                                           "(OUTPUT.run) of the run that drifted, whose pages it "
                                                           "kept, or pages (files, folders, URLs); default: its "
                                                           "seeds read again. A list program's start page "
                                                           "(default: its own).")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write the new version "
                                                "(default: beside the program, as NAME.v2.json).")] = None,
    allow_host: AllowHostOption = None,
    delay: DelayOption = None,
    llm: Annotated[str | None, typer.Option("--llm", help="A spec's field whose seed values are gone is found by "
                                                          "its evidence; let this model choose where the "
                                                          "evidence is split (default: no model).")] = None,
) -> None:
    """Mend a program whose site changed, with no model unless --llm, as a new version beside the old.

    A spec heals on the pages that changed: the pages a drifted run kept (give its OUTPUT.run directory), pages
    you name, or with neither its seed pages read again (a site that changed at the same addresses; saved seed
    files that did not change are said to be no changed pages). Each broken field is found again from the seed
    values it kept, or where they are gone by its evidence (label, value kind, place) among candidates that look
    like its old output; a field whose output on the pages still looks as forged is kept, and a selector found
    again where it was is not called healed. The selector diff and a check of the new output against the old
    profile are printed. A list program: recorded again on its start page, accepted when its replay looks like
    the old profile. A collection's program.py: its list program recorded again, checked against the
    collection's dataset, as program.v2.py.

    Exit status 0 when a new version was written or the pages need none; 3 when something could not be
    healed, the output still drifts, or there were no changed pages to heal on."""
    if program.suffix.lower() == ".py":
        if pages:
            raise usage_error("a collection program heals on its own sources: give no pages")
        if heal_collection(program, allow_host, delay, output) is None:
            raise typer.Exit(DRIFT_EXIT)
        return
    if program.suffix.lower() != ".json" and program.is_file():
        raise usage_error(f"{program}: heal takes a scraper spec or a list program (.json), or a program.py")
    if '"steps"' in read_artifact_text(program, "spec or list program", SpecError):
        if len(pages or []) > 1:
            raise usage_error("a list program heals on one start page")
        old = ListProgram.load(program)
        result = heal_list(old, program, (pages or [None])[0], "http", allow_host, delay, output)
        if result is None and old.profile is not None:
            raise typer.Exit(DRIFT_EXIT)
        return
    ledger = Ledger()
    model = llm_from_options(llm, ledger=ledger) if llm else None
    result = heal_from_sources(ScraperSpec.load(program), pages or [], allowed_hosts(allow_host),
                               EvidenceHeal(model))
    if model is not None:
        totals = ledger.totals()
        console.print(f"{totals.calls} model calls, {totals.input_tokens + totals.output_tokens} tokens",
                      highlight=False)
    save_healed(result, program, output)
    if heal_exit(result):
        raise typer.Exit(heal_exit(result))
