"""Shards: one batch in one JSON-lines file, written whole or not at all.

A shard holds what became of each URL of the batch, one ``{"page": [position, url, status, rows, etag,
last_modified, error]}`` line each, then the rows, one ``{"url": the URL asked for, "row": the row}`` line
each (a list program gives many rows per URL, and a row's ``source_url`` is where a redirect ended), so
the assembly can tell which rows a later run replaced. The worker that fetched the batch writes it; the
driver only learns the counts, so its work per batch does not grow with the batch.
A worker writes to a hidden temporary name, fsyncs, renames and fsyncs the directory: a reader finds a
complete shard or none, even after a power loss.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scrapesmith.io import read_json_lines, text_value
from scrapesmith.scale.views import PAGE_STATUSES, PageRecord

PARTIAL_SUFFIX = ".partial"
_RECORD_FIELDS = 7


def partial_name(path: Path) -> Path:
    """Where a shard is written before its rename (a killed worker may leave it, torn)."""
    return path.with_name(f".{path.name}.{os.getpid()}{PARTIAL_SUFFIX}")


def write_shard(path: Path, records: Iterable[PageRecord], entries: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Write a batch's page records and ``(url, row)`` entries to ``path`` atomically; return the rows."""
    path = Path(path)
    partial = partial_name(path)
    count = 0
    with partial.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps({"page": [record.position, record.url, record.status, record.rows, record.etag,
                                              record.last_modified, record.error]}, ensure_ascii=False) + "\n")
        for url, row in entries:
            handle.write(json.dumps({"url": url, "row": {key: text_value(value) for key, value in row.items()}},
                                    ensure_ascii=False) + "\n")
            count += 1
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return count


def read_shard(path: Path) -> tuple[list[tuple[str, dict[str, Any]]], list[PageRecord], int]:
    """A shard's ``(url, row)`` entries, its page records, and how many lines could not be read (counted,
    never hidden)."""
    lines, torn = read_json_lines(path)
    entries, records = [], []
    for line in lines:
        page = line.get("page")
        if isinstance(line.get("url"), str) and isinstance(line.get("row"), dict):
            entries.append((line["url"], line["row"]))
        elif isinstance(page, list) and len(page) == _RECORD_FIELDS and page[2] in PAGE_STATUSES:
            records.append(PageRecord(*page))
        else:
            torn += 1
    return entries, records, torn
