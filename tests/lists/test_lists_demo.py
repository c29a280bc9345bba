"""The demo's list step: program and table land in the run directory."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from scrapesmith.io import read_rows
from scrapesmith.lists.demo import demo_list_step
from scrapesmith.lists.program import ListProgram
from scrapesmith.web.fetch import HttpFetcher


def test_demo_list_step_writes_program_and_rows(demo_web, tmp_path: Path) -> None:
    out = StringIO()
    with HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0.0) as fetcher:
        ctx = SimpleNamespace(server=demo_web, fetcher=fetcher, run_dir=tmp_path, console=Console(file=out))
        demo_list_step(ctx)
    program = ListProgram.load(tmp_path / "jobs.program.json")
    rows = read_rows(tmp_path / "jobs.csv")
    engineering = [j for j in demo_web.sites.truth("acme")["jobs"] if j["category"] == "Engineering"]
    assert len(rows) == len(engineering) and program.plan().setup
    assert "EnterList" in out.getvalue()
