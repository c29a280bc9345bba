"""Writing ``report.html``: where it goes for each kind of run, and writing it."""

from __future__ import annotations

from pathlib import Path

from scrapesmith.report.load import RUN_RECORD_SUFFIX, load_run
from scrapesmith.report.render import render_report

REPORT_NAME = "report.html"


def report_path(run: Path) -> Path:
    """``RUN_DIR/report.html`` for a run directory; ``<name>.report.html`` beside a ``<name>.run.json``."""
    run = Path(run)
    if run.is_dir():
        return run / REPORT_NAME
    return run.with_name(run.name.removesuffix(RUN_RECORD_SUFFIX) + ".report.html")


def write_report(run: Path) -> Path:
    """Draw the report of ``run`` (a collect run directory or a run record) and return its path."""
    path = report_path(run)
    path.write_text(render_report(load_run(run)), encoding="utf-8")
    return path
