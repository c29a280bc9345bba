"""`scrapesmith bench browser`: Chromium page loads, renders and actions."""

from __future__ import annotations

from typing import Annotated

import typer

from scrapesmith.bench.browser import bench_browser
from scrapesmith.bench.frame import report
from scrapesmith.cli import bench_app
from scrapesmith.cli.options import (
    JsonOutOption,
    progress_bar,
)


@bench_app.command("browser")
def bench_browser_command(
    pages: Annotated[
        int, typer.Option("--pages", min=4, help="Static demo pages per fetcher and level.")
    ] = 40,
    contexts: Annotated[
        int, typer.Option("--contexts", min=2, help="The concurrent level compared with 1 context.")
    ] = 4,
    launches: Annotated[
        int, typer.Option("--launches", min=0, help="Extra cold launches timed (besides one per level).")
    ] = 3,
    json_out: JsonOutOption = None,
) -> None:
    """Browser launch and render time; pages/s of BrowserFetcher vs HttpFetcher with 1 and N contexts."""
    steps = 1 + 2 * 2  # launches, then http and browser at each of two concurrency levels
    with progress_bar() as progress:
        task = progress.add_task("browser benchmark", total=steps)
        finished = iter(range(steps))

        def step(name: str) -> None:
            progress.update(task, completed=next(finished), description=name)

        result = bench_browser(pages=pages, concurrency=(1, contexts), launches=launches, on_step=step)
    report(result, json_out, case_columns=["fetcher", "contexts", "pages", "seconds", "pages_per_s"])

