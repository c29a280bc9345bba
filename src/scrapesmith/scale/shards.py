"""Shards: the rows of one batch in one JSON-lines file, written whole or not at all.

Each line is ``{"url": the URL asked for, "row": the row}`` (a list program gives many rows per URL, and a
row's ``source_url`` is where a redirect ended), so the assembly can tell which rows a later run replaced.
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


def write_shard(path: Path, entries: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Write ``(url, row)`` entries to ``path`` atomically; return how many rows were written."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    count = 0
    with partial.open("w", encoding="utf-8") as handle:
        for url, row in entries:
            record = {"url": url, "row": {key: text_value(value) for key, value in row.items()}}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
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


def read_shard(path: Path) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """The ``(url, row)`` entries of a shard, and how many lines could not be read (counted, never hidden)."""
    records, torn = read_json_lines(path)
    entries = []
    for record in records:
        if isinstance(record.get("url"), str) and isinstance(record.get("row"), dict):
            entries.append((record["url"], record["row"]))
        else:
            torn += 1
    return entries, torn
