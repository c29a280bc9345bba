"""``scrapesmith report PATH``: draw (or redraw) the HTML report of a finished run, or of a folder of runs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app
from scrapesmith.cli.options import OpenOption, show_report


@app.command("report")
def report_command(
    path: Annotated[Path, typer.Argument(help="A run directory, a *.run.json record, or a folder of runs.")],
    open_: OpenOption = False,
) -> None:
    """Draw the self-contained report.html of a run: summary, first rows with provenance, columns, how it was made."""
    from scrapesmith.report import report_anything

    show_report(report_anything(path), open_)
