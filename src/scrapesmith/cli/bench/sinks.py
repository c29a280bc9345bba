"""`scrapesmith bench sinks`: rows per second into SQLite, DuckDB and PostgreSQL beside Parquet."""

from __future__ import annotations

from typing import Annotated

import typer

from scrapesmith.cli import bench_app, console
from scrapesmith.cli.options import JsonOutOption, usage_error
from scrapesmith.io import DEFAULT_BATCH, is_database_url


@bench_app.command("sinks")
def bench_sinks_command(
    rows: Annotated[int, typer.Option("--rows", min=1, help="Rows written to every sink.")] = 100_000,
    to: Annotated[list[str] | None, typer.Option(
        "--to", metavar="DATABASE_URL", help="A database to write into (repeatable; {dir} is a fresh temporary "
        "folder). Default: sqlite:///{dir}/rows.db and duckdb:///{dir}/rows.duckdb.")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Rows per transaction.")] = DEFAULT_BATCH,
    json_out: JsonOutOption = None,
) -> None:
    """Synthetic typed rows into Parquet and into each database twice (a new table, then every row updated
    by key): rows per second for each, the table checked to hold exactly the rows given."""
    from scrapesmith.bench.frame import report
    from scrapesmith.bench.sinks import run_benchmark

    urls = list(to or ["sqlite:///{dir}/rows.db", "duckdb:///{dir}/rows.duckdb"])
    for url in urls:
        if not is_database_url(url):
            raise usage_error(f"--to {url!r}: use sqlite:///PATH, duckdb:///PATH or postgresql://USER@HOST/DB")
    result = run_benchmark(rows, urls, batch_size, progress=lambda line: console.print(line, highlight=False))
    report(result, json_out, case_columns=["sink", "write", "rows", "seconds", "rows_per_s", "table_rows"])
