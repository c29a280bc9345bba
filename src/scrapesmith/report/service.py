"""Writing ``report.html``: where it goes for each kind of run, and writing it."""

from __future__ import annotations

from pathlib import Path

from scrapesmith.report.load import RUN_RECORD_SUFFIX, ReportError, load_run
from scrapesmith.report.render import render_index, render_report

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


def runs_in(folder: Path) -> list[Path]:
    """The runs directly inside ``folder``: ``*.run.json`` records and run directories (collect, insta)."""
    folder = Path(folder)
    records = sorted(folder.glob(f"*{RUN_RECORD_SUFFIX}"))
    directories = sorted(p for p in folder.iterdir() if p.is_dir() and is_run(p))
    return records + directories


def write_index(folder: Path) -> Path:
    """Draw every run in ``folder`` and ``folder/report.html`` listing them (what the demo leaves)."""
    folder = Path(folder)
    runs = []
    for run in runs_in(folder):
        path = write_report(run)
        runs.append((path.relative_to(folder).as_posix(), load_run(run)))
    index = folder / REPORT_NAME
    index.write_text(render_index(folder.name, runs), encoding="utf-8")
    return index


def is_run(path: Path) -> bool:
    path = Path(path)
    return (path / "result.json").is_file() or (path / "shards").is_dir() or path.name.endswith(RUN_RECORD_SUFFIX)


def _not_a_run(path: Path) -> str:
    """What a path that is neither a run nor a folder of runs is (the file a user may have meant)."""
    if not path.exists():
        return "no such file or folder (give a run directory or a *.run.json record)"
    if path.is_file() and path.stat().st_size == 0:
        return "is empty, not a run record (a *.run.json record or a run directory)"
    if path.is_file() and b"\x00" in path.open("rb").read(4096):
        return "is binary, not a run record (a *.run.json record or a run directory)"
    return "is not a run record (a *.run.json record or a run directory)"


def report_anything(path: Path) -> Path:
    """``scrapesmith report PATH``: a run's report, or for a folder of runs their reports and an index."""
    path = Path(path)
    if is_run(path):
        return write_report(path)
    if not path.is_dir():
        raise ReportError(f"{path}: {_not_a_run(path)}")
    if not runs_in(path):
        raise ReportError(f"{path}: a folder with no run in it (a collect or insta run directory, or a *{RUN_RECORD_SUFFIX} record)")
    return write_index(path)
