"""Dataset writers and readers: CSV, JSONL and Parquet, chosen by the file's suffix, typed by a schema.

Rows are plain dicts. :func:`write_rows` types every column (the schema given, else one inferred from
the values, see :mod:`scrapesmith.io.schema`), puts the data columns first and the provenance columns
(``source_url``, ``detail_url``, ``fetched_at``, ``program_id``, ``error``) last in one order. JSONL
and Parquet carry the types (numbers, dates, timestamps, lists); CSV carries text, and
:func:`read_rows` with the same schema types it again.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.io.schema import (
    column_order,
    conform,
    infer_schema,
    is_empty,
    order_columns,
    text_value,
    widest_type,
)

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}
ROW_GROUP = 10_000  # Parquet rows written at once: few row groups, and memory bounded whatever the dataset


def _csv_cell(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), ensure_ascii=False)
    return text_value(value)


def typed_rows(rows: Iterable[Mapping[str, Any]], schema: Mapping[str, str] | None = None,
               ) -> tuple[list[dict[str, Any]], list[str], dict[str, str]]:
    """``(rows, columns, schema)``: the rows typed by ``schema`` (inferred where it says nothing), in the
    one column order."""
    rows = list(rows)
    columns = order_columns([*column_order(rows), *[c for c in (schema or {}) if c not in column_order(rows)]])
    full = {**infer_schema(rows, columns), **{k: v for k, v in (schema or {}).items() if k in columns}}
    typed, applied = conform(rows, full)
    return typed, columns, applied


def write_rows(rows: Iterable[Mapping[str, Any]], path: Path, schema: Mapping[str, str] | None = None) -> Path:
    """Write ``rows`` to ``path``; the format follows the suffix (.csv, .jsonl, .parquet)."""
    rows = list(rows)
    return write_row_chunks(lambda: [rows], path, schema)[0]


RowChunks = Callable[[], Iterable[Sequence[Mapping[str, Any]]]]


def write_row_chunks(chunks: RowChunks, path: Path, schema: Mapping[str, str] | None = None) -> tuple[Path, int]:
    """Write a dataset too large for memory one chunk at a time; return the path and the number of rows.

    ``chunks()`` is called twice: once to learn the columns and the one type of each over every chunk (a
    column typed differently in two chunks widens, as :func:`~scrapesmith.io.schema.widest_type` says), then
    to write. The file appears whole or not at all: it is written beside ``path`` and renamed onto it.
    """
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ScrapesmithError(f"unsupported output format '{path.suffix}' (use .csv, .jsonl or .parquet)")
    columns, applied = dataset_schema(chunks, schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    written = 0
    with _chunk_writer(fmt, partial, columns, applied) as write:
        for chunk in chunks():
            typed, _ = conform(chunk, applied)
            write(typed)
            written += len(typed)
    os.replace(partial, path)
    return path, written


def dataset_schema(chunks: RowChunks, declared: Mapping[str, str] | None) -> tuple[list[str], dict[str, str]]:
    """Every column in the one order, and its type: what each chunk's filled values make of it, widened."""
    seen: dict[str, None] = dict.fromkeys(declared or {})
    votes: dict[str, set[str]] = {}
    for chunk in chunks():
        _typed, _columns, applied = typed_rows(chunk, declared)
        for column in column_order(chunk):
            seen.setdefault(column, None)
            if any(not is_empty(row.get(column)) for row in chunk):
                votes.setdefault(column, set()).add(applied[column])
    columns = order_columns(list(seen))
    fallback = {**infer_schema([], columns), **(declared or {})}
    return columns, {c: widest_type(votes[c]) if c in votes else fallback[c] for c in columns}


@contextmanager
def _chunk_writer(fmt: str, path: Path, columns: list[str], schema: dict[str, str],
                  ) -> Iterator[Callable[[list[dict[str, Any]]], None]]:
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        from scrapesmith.io.schema import arrow_schema

        arrow = arrow_schema(schema, columns)
        pending: list[dict[str, Any]] = []

        def flush() -> None:
            writer.write_table(pa.Table.from_pylist([{k: row.get(k) for k in columns} for row in pending],
                                                    schema=arrow))
            pending.clear()

        def add(rows: list[dict[str, Any]]) -> None:
            pending.extend(rows)
            if len(pending) >= ROW_GROUP:
                flush()

        with pq.ParquetWriter(path, arrow) as writer:
            yield add
            flush()  # the last rows (a dataset with none still gets an empty table: its columns)
        return
    with path.open("w", newline="" if fmt == "csv" else None, encoding="utf-8") as handle:
        if fmt == "csv":
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            yield lambda rows: writer.writerows({k: _csv_cell(row.get(k)) for k in columns} for row in rows)
        else:
            yield lambda rows: handle.writelines(
                json.dumps({k: text_value(row.get(k)) for k in columns}, ensure_ascii=False) + "\n" for row in rows)


def read_json_lines(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The JSON objects of a JSON-lines file, and how many lines were torn (not UTF-8, not a JSON object).

    Append-only stores end in a half-written line after a crash, torn anywhere, even inside a multi-byte
    character; such a line costs that line only, and the count says how many were skipped.
    """
    records, torn = [], 0
    for raw in Path(path).read_bytes().split(b"\n"):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            torn += 1
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            torn += 1
    return records, torn


def read_rows(path: Path, schema: Mapping[str, str] | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """Read back a dataset written by :func:`write_rows`; with ``schema``, values come back typed (CSV and
    JSONL dates, CSV numbers and lists). Without it, CSV cells are text. With ``limit``, only the first
    ``limit`` rows are read (the rest of a large file is never loaded)."""
    rows = list(itertools.islice(_iter_rows(Path(path)), limit))
    if schema:
        rows, _applied = conform(rows, {k: v for k, v in schema.items()})
    return rows


def iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of a dataset one at a time (CSV cells as text), so a caller can read any size in bounded memory."""
    return _iter_rows(Path(path))


def count_rows(path: Path) -> int:
    """How many rows a dataset holds, read without loading them."""
    path = Path(path)
    if FORMATS.get(path.suffix.lower()) == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    return sum(1 for _ in _iter_rows(path))


def _iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            yield from csv.DictReader(handle)
    elif fmt == "jsonl":
        with path.open(encoding="utf-8") as handle:
            yield from (json.loads(line) for line in handle if line.strip())
    elif fmt == "parquet":
        import pyarrow.parquet as pq

        for batch in pq.ParquetFile(path).iter_batches(batch_size=1_000):
            yield from batch.to_pylist()
    else:
        raise ScrapesmithError(f"unsupported dataset format '{path.suffix}'")
