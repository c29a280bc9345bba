"""Dataset writers: CSV, JSONL and Parquet, chosen by the output file's suffix.

Rows are plain dicts. Provenance columns (``source_url``, ``fetched_at``, ``program_id``) are ordinary
columns that the producing capability fills in; :func:`write_rows` keeps the column order of first
appearance so provenance stays where the producer put it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from scrapesmith.errors import ScrapesmithError

PROVENANCE_COLUMNS = ("source_url", "fetched_at", "program_id")
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}


def column_order(rows: list[Mapping[str, Any]]) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key, None)
    return list(columns)


def _cell(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), ensure_ascii=False)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def write_rows(rows: Iterable[Mapping[str, Any]], path: Path) -> Path:
    """Write ``rows`` to ``path``; the format follows the suffix (.csv, .jsonl, .parquet)."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ScrapesmithError(f"unsupported output format '{path.suffix}' (use .csv, .jsonl or .parquet)")
    rows = list(rows)
    columns = column_order(rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns)
            writer.writeheader()
            for row in rows:
                writer.writerow({key: _cell(row.get(key)) for key in columns})
    elif fmt == "jsonl":
        with path.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps({k: _cell(v) for k, v in row.items()}, ensure_ascii=False) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table({key: [_cell(row.get(key)) for row in rows] for key in columns})
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


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Read back a dataset written by :func:`write_rows`."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            return list(csv.DictReader(handle))
    if fmt == "jsonl":
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    raise ScrapesmithError(f"unsupported dataset format '{path.suffix}'")
