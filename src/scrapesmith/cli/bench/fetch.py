"""`scrapesmith bench fetch`: fetch throughput, politeness and archive cost."""

from __future__ import annotations

from typing import Annotated

import typer

from scrapesmith.bench.fetch import MODES, bench_fetch
from scrapesmith.bench.frame import report
from scrapesmith.cli import bench_app
from scrapesmith.cli.options import (
    JsonOutOption,
    progress_bar,
)


@bench_app.command("fetch")
def bench_fetch_command(
    pages: Annotated[int, typer.Option("--pages", min=20, help="Pages fetched by each client in each round.")] = 300,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds; in each, every client fetches all pages, taking turns in blocks.")] = 3,
    json_out: JsonOutOption = None,
) -> None:
    """Pages/s of HttpFetcher (politeness off, robots on and off) vs a bare httpx loop on the demo web."""
    with progress_bar(auto_refresh=False) as progress:
        task = progress.add_task("fetch benchmark", total=rounds * len(MODES))
        result = bench_fetch(pages=pages, rounds=rounds, on_round=lambda _round: progress.update(task, advance=1, refresh=True))
    report(result, json_out, case_columns=["mode", "round", "pages", "seconds", "pages_per_s"])

