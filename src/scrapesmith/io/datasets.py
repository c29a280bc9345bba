"""Dataset writers and readers: CSV, JSONL and Parquet, chosen by the file's suffix, typed by a schema.

Rows are plain dicts. :func:`write_rows` types every column (the schema given, else one inferred from
the values, see :mod:`scrapesmith.io.schema`), puts the data columns first and the provenance columns
(``source_url``, ``detail_url``, ``fetched_at``, ``program_id``, ``error``) last in one order. JSONL
and Parquet carry the types (numbers, dates, timestamps, lists); CSV carries text, and
:func:`read_rows` with the same schema types it again.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.io.schema import column_order, conform, infer_schema, order_columns, text_value

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}


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
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ScrapesmithError(f"unsupported output format '{path.suffix}' (use .csv, .jsonl or .parquet)")
    rows, columns, applied = typed_rows(rows, schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow({key: _csv_cell(row.get(key)) for key in columns})
    elif fmt == "jsonl":
        with path.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps({k: text_value(row.get(k)) for k in columns}, ensure_ascii=False) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from scrapesmith.io.schema import arrow_schema

        table = pa.Table.from_pylist([{k: row.get(k) for k in columns} for row in rows],
                                     schema=arrow_schema(applied, columns))
        pq.write_table(table, path)
    return path


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


def read_rows(path: Path, schema: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Read back a dataset written by :func:`write_rows`; with ``schema``, values come back typed (CSV and
    JSONL dates, CSV numbers and lists). Without it, CSV cells are text."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            rows: list[dict[str, Any]] = list(csv.DictReader(handle))
    elif fmt == "jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    elif fmt == "parquet":
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    else:
        raise ScrapesmithError(f"unsupported dataset format '{path.suffix}'")
    if schema:
        rows, _applied = conform(rows, {k: v for k, v in schema.items()})
    return rows
