"""``scrapesmith bench sinks``: rows per second into each database sink, beside writing the same rows to Parquet.

The rows are synthetic and typed like a scraper's (text, an integer, a number, a boolean, a date, a list, the
provenance columns), keyed by ``id``. Each database gets them twice: into a new table (every row inserted)
and again with one value changed in every row (every row updated in place, ``first_seen`` kept); the table
must then hold exactly the rows given, or the case fails. Parquet is written once, as ``-o rows.parquet``
would be. Every figure counts the whole call: typing the rows, the transactions, the commit.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from scrapesmith.bench.frame import BenchResult
from scrapesmith.io import DatabaseSink, write_database, write_row_chunks

SCHEMA = {"id": "string", "title": "string", "pages": "integer", "price": "number", "in_stock": "boolean",
          "published": "date", "tags": "list"}
CHUNK = 10_000


def synthetic_rows(count: int, price_offset: float = 0.0) -> list[dict[str, Any]]:
    """``count`` rows of a made-up shop, the same every time (``price_offset`` changes every price)."""
    start, fetched = date(2000, 1, 1), datetime(2026, 12, 1, tzinfo=UTC).isoformat(timespec="seconds")
    return [{"id": f"item-{n:07d}", "title": f"Item number {n} of the catalogue", "pages": 50 + n % 900,
             "price": round(1 + (n % 5000) / 100 + price_offset, 2), "in_stock": n % 3 != 0,
             "published": (start + timedelta(days=n % 9000)).isoformat(), "tags": [f"tag{n % 7}", f"shelf{n % 11}"],
             "source_url": f"http://127.0.0.1:8765/items/{n}", "fetched_at": fetched, "program_id": "spec-bench"}
            for n in range(count)]


def _chunks(rows: list[dict[str, Any]]) -> Callable[[], list[list[dict[str, Any]]]]:
    return lambda: [rows[i:i + CHUNK] for i in range(0, len(rows), CHUNK)]


def _timed(work: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    value = work()
    return value, time.perf_counter() - started


def run_benchmark(count: int, urls: list[str], batch_size: int, progress: Callable[[str], None] = print,
                  folder: Path | None = None) -> BenchResult:
    """Parquet, then every database URL (``{dir}`` in a URL is a fresh temporary folder): insert and upsert."""
    rows, changed = synthetic_rows(count), synthetic_rows(count, price_offset=1.0)
    cases: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-sinks-", dir=folder) as temporary:
        (_path, written), seconds = _timed(lambda: write_row_chunks(_chunks(rows), Path(temporary) / "rows.parquet",
                                                                    SCHEMA))
        cases.append({"sink": "parquet", "write": "file", "rows": written, "seconds": round(seconds, 3),
                      "rows_per_s": round(written / seconds), "table_rows": written})
        progress(f"parquet: {written / seconds:,.0f} rows/s")
        for url in urls:
            sink = DatabaseSink(url.replace("{dir}", temporary), "bench_rows", ("id",), batch_size)
            for write, data in (("insert", rows), ("upsert", changed)):
                result, seconds = _timed(lambda data=data, sink=sink: write_database(_chunks(data), sink, SCHEMA))
                if result.table_rows != count:
                    raise AssertionError(f"{sink.shown}: {result.table_rows} rows in the table after the {write}, "
                                         f"not {count}")
                cases.append({"sink": url.split(":", 1)[0], "write": write, "rows": result.written,
                              "seconds": round(seconds, 3), "rows_per_s": round(result.written / seconds),
                              "table_rows": result.table_rows})
                progress(f"{cases[-1]['sink']} {write}: {result.written / seconds:,.0f} rows/s")
    summary = {f"{case['sink']}_{case['write']}_rows_per_s": case["rows_per_s"] for case in cases}
    return BenchResult(name="sinks", summary=summary, cases=cases,
                       params={"rows": count, "batch_size": batch_size, "sinks": [u.split(":", 1)[0] for u in urls]})
