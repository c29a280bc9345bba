"""``scrapesmith demo``: the product end to end on the local demo web, offline, in a few minutes.

Orchestration only: every step calls a capability's public API and prints what it produced. The run
directory (``runs/demo-<time>/``) keeps every artefact so a user can open what the demo made.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from scrapesmith.demo.collect_step import collect_per_domain
from scrapesmith.demo.context import DemoContext, DemoStep, new_run_dir
from scrapesmith.demo.induce_step import induce_book_scrapers
from scrapesmith.demo.lists_step import record_job_list
from scrapesmith.demo.survey import survey_sites
from scrapesmith.report import write_index
from scrapesmith.sites import serve_sites
from scrapesmith.web import ArchivingFetcher, HttpFetcher, WarcWriter

STEPS: list[tuple[str, DemoStep]] = [
    ("Survey the local demo web", survey_sites),
    ("Forge field scrapers for two book layouts (induce)", induce_book_scrapers),
    ("Record and replay a job list (lists)", record_job_list),
    ("Turn one instruction per domain into a dataset (collect)", collect_per_domain),
]


def run_demo(console: Console, run_root: Path = Path("runs"), llm_spec: str | None = None,
             llm_cache: bool = True) -> Path:
    """Serve the demo web, run every step against it, and return the run directory."""
    run_dir = new_run_dir(run_root)
    with serve_sites() as server, WarcWriter(run_dir / "pages.warc.gz") as warc:
        http = HttpFetcher(allow_hosts=["127.0.0.1"], delay=0.0, max_per_host=4)
        ctx = DemoContext(server, ArchivingFetcher(http, warc), run_dir, console, llm_spec, llm_cache)
        try:
            for number, (title, step) in enumerate(STEPS, start=1):
                console.rule(f"[bold]{number}. {title}")
                step(ctx)
        finally:
            http.close()
    console.rule("[bold]done")
    console.print(f"Everything the demo made is in [bold]{run_dir}[/] (pages archived in pages.warc.gz).")
    console.print(f"report: {write_index(run_dir)}", highlight=False)
    return run_dir
