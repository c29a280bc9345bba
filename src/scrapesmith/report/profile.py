"""Column profiles: the value type of each column, its fill rate and distinct count, and what looks wrong.

A column the user asked for that is empty in every row, or filled in fewer than half of them, or that
holds one value in every row of a longer dataset, is flagged: such columns are how a run that "worked"
can still be useless, and nothing may be lost silently. A numeric column of a dataset that has a date
column also gets its values in date order (``series``), drawn as a line over time: a price that halves
from one run's dates to the next is seen at once.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from scrapesmith.io import PROVENANCE_COLUMNS, column_order, is_empty, value_type
from scrapesmith.report.views import ColumnProfile

_URL = re.compile(r"^(https?|file)://", re.IGNORECASE)
SUSPICIOUS_FILL = 0.5
CONSTANT_AFTER = 5


_KINDS = {"string": "text", "timestamp": "date"}


def value_kind(value: Any) -> str:
    """``integer``, ``number``, ``date``, ``url``, ``list``, ``boolean`` or ``text``: the dataset's own column
    types (:func:`scrapesmith.io.schema.value_type`), with timestamps shown as dates and links told apart."""
    kind = value_type(value)
    if kind == "string" and _URL.match(str(value).strip()):
        return "url"
    return _KINDS.get(kind, kind)


def column_kind(values: Sequence[Any]) -> str:
    """The one kind every filled value has; integers mixed with numbers are numbers; else ``text``."""
    kinds = {value_kind(value) for value in values}
    if not kinds:
        return "empty"
    if kinds == {"integer", "number"}:
        return "number"
    return kinds.pop() if len(kinds) == 1 else "text"


ERROR_COLUMN = "error"


def _flag(profile: ColumnProfile) -> str:
    """Why a column looks wrong; an ``error`` column (per-item failures) empty everywhere is good news."""
    if profile.provenance or not profile.rows or (profile.name == ERROR_COLUMN and profile.filled == 0):
        return ""
    if profile.filled == 0:
        return "empty in every row"
    if profile.fill_rate < SUSPICIOUS_FILL:
        return f"filled in only {profile.filled} of {profile.rows} rows"
    if profile.rows >= CONSTANT_AFTER and profile.distinct == 1 and profile.kind != "boolean":
        return "the same value in every row"
    return ""


def profile_columns(rows: Sequence[Mapping[str, Any]]) -> list[ColumnProfile]:
    """One profile per column, in the dataset's column order."""
    profiles = []
    for name in column_order(list(rows)):
        values = [row.get(name) for row in rows]
        filled = [value for value in values if not is_empty(value)]
        profile = ColumnProfile(name=name, kind=column_kind(filled), filled=len(filled), rows=len(rows),
                                distinct=len({str(value) for value in filled}),
                                provenance=name in PROVENANCE_COLUMNS)
        profile.flag = _flag(profile)
        profiles.append(profile)
    dated = next((p.name for p in profiles if p.kind == "date" and not p.provenance), None)
    for profile in profiles:
        if dated is not None and profile.kind in NUMERIC and not profile.provenance:
            profile.series = dated_series(rows, dated, profile.name)
    return profiles


NUMERIC = ("integer", "number")


def dated_series(rows: Sequence[Mapping[str, Any]], date_column: str, column: str) -> list[tuple[str, float]]:
    """(date, value) for every row with both, in date order (ISO dates and timestamps sort as text)."""
    series = []
    for row in rows:
        when, value = row.get(date_column), row.get(column)
        if is_empty(when) or is_empty(value):
            continue
        with contextlib.suppress(ValueError):  # a cell of the column that is not a number is left out
            series.append((str(when).strip(), float(str(value).replace(",", ""))))
    return sorted(series)
