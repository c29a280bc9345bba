"""Demo step 3: record a list program on a demo careers page, show it, replay it with no LLM.

Writes ``jobs.program.json``, ``jobs.csv``, ``jobs.run.json`` and ``jobs.report.html`` into the run directory.
"""

from __future__ import annotations

from rich.table import Table

from scrapesmith.demo.context import DemoContext
from scrapesmith.lists import describe, extract_list, http_runtimes, replay_program, save_run
from scrapesmith.llm import Ledger

DEMO_PATH = "/acme/careers/"
DEMO_GOAL = "all open Engineering jobs"
DEMO_COLUMNS = ["Job Title", "Job URL"]


def record_job_list(ctx: DemoContext) -> None:
    """Record (heuristically: no model needed) a filtered, paginated job list, then replay the program."""
    runtimes = http_runtimes(ctx.fetcher)
    recording, _ = extract_list(runtimes, ctx.server.url(DEMO_PATH), DEMO_GOAL, DEMO_COLUMNS)
    program_path = recording.program.save(ctx.run_dir / "jobs.program.json")
    ctx.console.print(f"[bold]List program[/] for {DEMO_GOAL!r} ({program_path.name}):")
    for step in recording.program.steps:
        ctx.console.print(f"  {describe(step)}", markup=False, highlight=False)
    result = replay_program(runtimes, recording.program)
    table = Table(title=f"Replayed without a model: {len(result.rows)} rows from {result.pages} page(s)")
    for column in DEMO_COLUMNS:
        table.add_column(column, overflow="fold")
    for row in result.rows:
        table.add_row(*(str(row[column]) for column in DEMO_COLUMNS))
    ctx.console.print(table)
    report = save_run("lists", recording.program, result, ctx.run_dir / "jobs.csv", Ledger(), program_path)
    ctx.console.print(f"report: {report}", highlight=False)
