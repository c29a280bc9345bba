"""Column types of a dataset: inferred from values or declared once, applied the same way by every writer.

A schema maps each column to one of :data:`COLUMN_TYPES`. Numbers are written as numbers, ISO dates as
dates, timestamps in one format (:func:`timestamp`), multi-valued fields as lists; the provenance
columns have fixed types and come last, always in the order of :data:`PROVENANCE_COLUMNS`. A program
declares its schema once (collect's ``SCHEMA``, a list program's ``column_types``) so a rerun writes the
same types whatever the pages hold that day.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

COLUMN_TYPES = ("string", "integer", "number", "boolean", "date", "timestamp", "list")
PROVENANCE_COLUMNS = ("source_url", "detail_url", "fetched_at", "program_id", "error")
PROVENANCE_TYPES = {"source_url": "string", "detail_url": "string", "fetched_at": "timestamp",
                    "program_id": "string", "error": "string"}
Schema = dict[str, str]

# text of ten digits or more with no separators is an identifier (ISBN, phone, EAN), not a quantity
_INTEGER = re.compile(r"^[+-]?(?:0|[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d{0,8})$")
_NUMBER = re.compile(r"^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?\.\d+$|^[+-]?\d+(?:\.\d+)?[eE][+-]?\d+$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$")


class SchemaError(ValueError):
    """A value that does not have its column's declared type."""


def timestamp(moment: datetime | None = None) -> str:
    """The one timestamp format of every dataset: ISO 8601, UTC, seconds (``2026-11-25T11:38:44+00:00``)."""
    moment = moment or datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, (list, tuple)) and not value)


def value_type(value: Any) -> str:
    """The narrowest column type ``value`` fits (text that reads as a number is a number)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, datetime):
        return "timestamp"
    if isinstance(value, date):
        return "date"
    text = str(value).strip()
    for kind, pattern in (("integer", _INTEGER), ("number", _NUMBER), ("date", _DATE), ("timestamp", _TIMESTAMP)):
        if pattern.match(text):
            return kind
    return "string"


def infer_type(values: Iterable[Any]) -> str:
    """The one type every filled value fits: integers with numbers are numbers, anything else mixed is text."""
    return widest_type(value_type(v) for v in values if not is_empty(v))


def widest_type(types: Iterable[str]) -> str:
    """The one column type that holds values of every type in ``types`` (``string`` when there are none)."""
    kinds = set(types)
    if not kinds:
        return "string"
    if kinds <= {"integer", "number"}:
        return "number" if "number" in kinds else "integer"
    if kinds <= {"date", "timestamp"}:
        return "timestamp" if "timestamp" in kinds else "date"
    return kinds.pop() if len(kinds) == 1 else "string"


def infer_schema(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> Schema:
    """A type per column (``columns``, or every column of ``rows``); provenance columns keep theirs."""
    names = list(columns) if columns is not None else column_order(rows)
    return {name: PROVENANCE_TYPES.get(name) or infer_type(row.get(name) for row in rows) for name in names}


def column_order(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """Data columns in order of first appearance, then the provenance columns present, in their one order."""
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key, None)
    return order_columns(list(columns))


def order_columns(columns: Sequence[str]) -> list[str]:
    data = [c for c in columns if c not in PROVENANCE_COLUMNS]
    return data + [c for c in PROVENANCE_COLUMNS if c in columns]


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def coerce(value: Any, kind: str) -> Any:
    """``value`` as a Python value of column type ``kind`` (``None`` when empty); :class:`SchemaError` if it
    cannot be one."""
    if is_empty(value):
        return None
    try:
        if kind == "string":
            return value if isinstance(value, str) else (
                json.dumps(value, ensure_ascii=False) if isinstance(value, (list, dict)) else str(value))
        if kind == "list":
            if isinstance(value, (list, tuple)):
                return [str(v) for v in value if not is_empty(v)]
            text = str(value).strip()
            if text.startswith("["):
                return [str(v) for v in json.loads(text)]
            return [text]
        if kind == "integer":
            if isinstance(value, bool):
                raise SchemaError(f"{value!r} is not an integer")
            number = value if isinstance(value, (int, float)) else _number(str(value).strip())
            if float(number) != int(number):
                raise SchemaError(f"{value!r} is not an integer")
            return int(number)
        if kind == "number":
            return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else _number(
                str(value).strip())
        if kind == "boolean":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "yes", "1"):
                return True
            if text in ("false", "no", "0"):
                return False
            raise SchemaError(f"{value!r} is not a boolean")
        if kind == "date":
            if isinstance(value, datetime):
                return value.date()
            if isinstance(value, date):
                return value
            return date.fromisoformat(str(value).strip()[:10])
        if kind == "timestamp":
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(
                str(value).strip())
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return moment.astimezone(UTC)
    except (ValueError, TypeError, OverflowError) as exc:
        raise SchemaError(f"{value!r} is not a {kind}") from exc
    raise SchemaError(f"unknown column type '{kind}' (use {', '.join(COLUMN_TYPES)})")


_WIDER = {"integer": ("number",), "date": ("timestamp",)}


def conform(rows: Sequence[Mapping[str, Any]], schema: Mapping[str, str]) -> tuple[list[dict[str, Any]], Schema]:
    """Rows with every value of a typed column coerced; a column whose values do not all fit its declared
    type widens (integer to number, date to timestamp) or falls back to ``string`` (nothing is dropped), and the schema actually applied is returned."""
    applied = dict(schema)
    for column, kind in schema.items():
        for candidate in (kind, *_WIDER.get(kind, ()), "string"):
            try:
                for row in rows:
                    coerce(row.get(column), candidate)
            except SchemaError:
                continue
            applied[column] = candidate
            break
    return [{k: coerce(v, applied[k]) if k in applied else v for k, v in row.items()} for row in rows], applied


def text_value(value: Any) -> Any:
    """A typed value as JSON or CSV text carries it: dates ISO, timestamps in the one format, lists kept."""
    if isinstance(value, datetime):
        return timestamp(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


def arrow_schema(schema: Mapping[str, str], columns: Sequence[str]):
    """The pyarrow schema of ``columns`` (unknown columns are strings)."""
    import pyarrow as pa

    types = {"string": pa.string(), "integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_(),
             "date": pa.date32(), "timestamp": pa.timestamp("s", tz="UTC"), "list": pa.list_(pa.string())}
    return pa.schema([(c, types[schema.get(c, "string")]) for c in columns])
