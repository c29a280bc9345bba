"""What the parent reads back of a program's outputs: its ``dataset.csv`` and its ``failures.json``.

A collection program runs in the sandbox and may write anything into its output folder, so nothing it
wrote is trusted: each file is opened as a regular file only (:func:`scrapesmith.collect.outputs.open_regular`)
and read as a stream against fixed limits (columns, rows, characters in a field, bytes in all, failures
kept); past any of them the read is one line (:class:`UnsafeOutput`) and the rerun fails, never a parent
that runs out of memory.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from scrapesmith.collect.outputs import UnsafeOutput, open_regular, read_regular

_FAILURES_LIMIT = 16 * 2**20  # the per-item failures the parent reads into a rerun's record
MAX_FAILURES = 10_000  # per-item failures read back from a program's failures.json; more fail the rerun
FAILURE_CHARS = 2_000  # of each failure's url, item and error
#: what the parent reads back of a program's dataset.csv: (columns, rows, characters in one field); more
#: is one line and a failed rerun (the bytes in all are ``SandboxLimits.dataset_mb``)
DATASET_LIMITS = (1_000, 2_000_000, 128 * 1024)
SAMPLE_CELLS = 500_000  # values in a sample of rows kept in memory (drift check, report)


def scan_dataset(path: Path, limit: int) -> int:
    """How many rows a program's ``dataset.csv`` holds, read as a stream (:func:`open_regular`) against
    :data:`DATASET_LIMITS` and ``limit`` bytes in all; one line (:class:`UnsafeOutput`) past any of them, or
    when it is not UTF-8 CSV. Memory stays that of one row, whatever the file holds."""
    return sum(1 for _ in _dataset_stream(path, limit))


def dataset_chunks(path: Path, limit: int, size: int = 1_000) -> Iterator[list[dict[str, Any]]]:
    """The rows of a program's ``dataset.csv`` (checked as :func:`scan_dataset` does), ``size`` at a time."""
    chunk: list[dict[str, Any]] = []
    for row in _dataset_stream(path, limit):
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def dataset_rows(path: Path, limit: int, max_rows: int | None = None) -> list[dict[str, Any]]:
    """The rows of a program's ``dataset.csv`` (checked as :func:`scan_dataset` does, the whole file), or
    with ``max_rows`` a sample: its first rows, at most ``max_rows`` and :data:`SAMPLE_CELLS` values."""
    if max_rows is None:
        return list(_dataset_stream(path, limit))
    scan_dataset(path, limit)
    rows: list[dict[str, Any]] = []
    cells = 0
    for row in _dataset_stream(path, limit):
        if len(rows) >= max_rows or cells + len(row) > SAMPLE_CELLS:
            break
        rows.append(row)
        cells += len(row)
    return rows


def _dataset_stream(path: Path, limit: int) -> Iterator[dict[str, Any]]:
    columns_limit, rows_limit, field_limit = DATASET_LIMITS
    with open_regular(path) as raw:
        size = os.fstat(raw.fileno()).st_size
        if size > limit:
            raise UnsafeOutput(f"{path}: not read (larger than {limit:,} bytes)")
        text = io.TextIOWrapper(_Bounded(raw, limit), encoding="utf-8", newline="")
        reader = csv.reader(text)
        try:
            header = next(reader, None)
            if header is None:
                return
            if len(header) > columns_limit:
                raise UnsafeOutput(f"{path}: not a readable dataset (more than {columns_limit:,} columns)")
            for count, values in enumerate(reader, start=1):
                if count > rows_limit:
                    raise UnsafeOutput(f"{path}: not a readable dataset (more than {rows_limit:,} rows)")
                if len(values) > columns_limit:
                    raise UnsafeOutput(f"{path}: not a readable dataset (more than {columns_limit:,} columns in "
                                       f"row {count})")
                if any(len(value) > field_limit for value in values):
                    raise UnsafeOutput(f"{path}: not a readable dataset (a field over {field_limit:,} characters "
                                       f"in row {count})")
                if not values:
                    continue
                row = dict(zip(header, values, strict=False))
                if len(values) < len(header):
                    row.update(dict.fromkeys(header[len(values):]))
                elif len(values) > len(header):
                    row[None] = values[len(header):]  # as csv.DictReader keeps extra values
                yield row
        except (UnicodeDecodeError, csv.Error) as exc:
            raise UnsafeOutput(f"{path}: not a readable dataset ({exc})") from None


class _Bounded(io.RawIOBase):
    """A binary stream that ends with an error after ``limit`` bytes (a file growing while it is read)."""

    def __init__(self, inner: BinaryIO, limit: int) -> None:
        self._inner = inner
        self._left = limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._inner.read(min(len(buffer), self._left + 1))
        if len(data) > self._left:
            raise UnsafeOutput("the dataset grew past its size limit while it was read")
        self._left -= len(data)
        buffer[:len(data)] = data
        return len(data)


def read_failures(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The per-item failures a program wrote, and a line when they could not be read (all, or past
    :data:`MAX_FAILURES`: none are kept then)."""
    failures, unread, _over = read_failures_bounded(path)
    return failures, unread


def read_failures_bounded(path: Path) -> tuple[list[dict[str, str]], list[str], bool]:
    """:func:`read_failures`, and whether the file was past a limit (which fails a rerun).

    The list is read one item at a time, never parsed whole: an 8 MB file of ``{}`` took 3.1 GB and a
    287 MB report. Each failure keeps its ``url``, ``item`` and ``error`` as text of at most
    :data:`FAILURE_CHARS` characters."""
    if not os.path.lexists(path):
        return [], [], False
    try:
        text = read_regular(path, _FAILURES_LIMIT).decode("utf-8")
    except UnsafeOutput as exc:
        return [], [str(exc)], "larger than" in str(exc)
    except UnicodeDecodeError as exc:
        return [], [f"{path}: not read (not UTF-8: {exc})"], False
    decoder = json.JSONDecoder()
    failures: list[dict[str, str]] = []
    position = _skip_space(text, 0)
    if not text.startswith("[", position):
        return [], [f"{path}: not read (not a list of failures)"], False
    position = _skip_space(text, position + 1)
    try:
        while not text.startswith("]", position):
            if len(failures) == MAX_FAILURES:
                return [], [f"{path}: not read (more than {MAX_FAILURES:,} failures)"], True
            item, position = decoder.raw_decode(text, position)
            if isinstance(item, dict):
                failures.append({key: str(item.get(key) or "")[:FAILURE_CHARS] for key in ("url", "item", "error")})
            position = _skip_space(text, position)
            if text.startswith(",", position):
                position = _skip_space(text, position + 1)
            elif not text.startswith("]", position):
                raise ValueError(f"',' or ']' expected at {position}")
    except (ValueError, RecursionError) as exc:
        return [], [f"{path}: not read (not JSON: {exc})"], False
    return failures, [], False


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position
