"""``scrapesmith report PATH``: draw (or redraw) the HTML report of a finished run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app
from scrapesmith.cli.options import OpenOption, show_report
from scrapesmith.errors import ScrapesmithError
from scrapesmith.report.load import RUN_RECORD_SUFFIX


def runs_under(path: Path) -> list[Path]:
    """``path`` itself when it is a run; else every run directly inside it (a demo directory holds several)."""
    if (path / "result.json").is_file() or (path / "shards").is_dir() or path.name.endswith(RUN_RECORD_SUFFIX):
        return [path]
    if not path.is_dir():
        raise ScrapesmithError(f"{path}: no such run directory or run record")
    found = sorted(path.glob(f"*{RUN_RECORD_SUFFIX}")) + sorted(p for p in path.iterdir() if (p / "result.json").is_file())
    if not found:
        raise ScrapesmithError(f"{path}: no run here (a collect run directory, or a *{RUN_RECORD_SUFFIX} record)")
    return found


@app.command("report")
def report_command(
    path: Annotated[Path, typer.Argument(help="A run directory, a *.run.json record, or a directory of runs.")],
    open_: OpenOption = False,
) -> None:
    """Draw the self-contained report.html of a run: summary, first rows with provenance, columns, how it was made."""
    from scrapesmith.report import write_report

    for run in runs_under(path):
        show_report(write_report(run), open_)
