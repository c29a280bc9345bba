"""The demo's list step: program and table land in the run directory."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from rich.console import Console

from scrapesmith.demo.context import DemoContext
from scrapesmith.demo.lists_step import record_job_list
from scrapesmith.io import read_rows
from scrapesmith.lists.views import ListProgram
from scrapesmith.web.fetch import HttpFetcher


def test_list_step_writes_program_and_rows(demo_web, tmp_path: Path) -> None:
    out = StringIO()
    with HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0.0) as fetcher:
        record_job_list(DemoContext(demo_web, fetcher, tmp_path, Console(file=out)))
    program = ListProgram.load(tmp_path / "jobs.program.json")
    rows = read_rows(tmp_path / "jobs.csv")
    engineering = [j for j in demo_web.sites.truth("acme")["jobs"] if j["category"] == "Engineering"]
    assert len(rows) == len(engineering) and program.plan().setup
    assert "EnterList" in out.getvalue()
