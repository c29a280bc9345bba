"""Row filters read from the instruction: a named entity and a date range bound the rows on every path.

"the 2021 season stats of the Cedar Rapids Cardinals" names one team: when the sampled rows of a source
hold several values in a field and the instruction names exactly one of them, rows are kept only where
the field has that value (a year among several years counts the same way). "from 2023-02-01 to
2023-03-10" is a date range: rows are kept where the field holding dates falls inside it. The generated
program applies the filter to the rows of every access path (HTML list, table, REST) through
:func:`matching`; the validation agent checks every row against it and that the range is covered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from pydantic import BaseModel

_URL = re.compile(r"https?://\S+")
_ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
_DATE_FORMATS = ("%Y-%m-%d", "%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y", "%m/%d/%Y")
#: how far the first and last rows may sit inside the range and still cover it (weekends, holidays)
COVERAGE_SLACK = timedelta(days=7)
T = TypeVar("T")
PROVENANCE = frozenset({"source_url", "detail_url", "fetched_at", "program_id", "error"})


class DateRange(BaseModel):
    """Keep rows whose ``key`` is a date from ``start`` to ``end`` (inclusive, ISO dates)."""

    key: str
    start: str
    end: str


def parse_date(value: Any) -> date | None:
    """A date from an ISO string, a timestamp or a common display form ("Jan 02, 2024"); ``None`` if not one."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = " ".join(str(value if value is not None else "").split())
    if len(text) >= 10 and _ISO_DATE.match(text[:10]):
        text = text[:10]
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def instruction_range(instruction: str) -> tuple[str, str] | None:
    """The range two ISO dates in the instruction bound ("from 2023-02-01 to 2023-03-10")."""
    dates = sorted(set(_ISO_DATE.findall(_URL.sub(" ", instruction))))
    return (dates[0], dates[-1]) if len(dates) >= 2 else None


def _text(value: Any) -> str:
    return " ".join(str(value if value is not None else "").split())


def is_number(text: str) -> bool:
    """Whether the text reads as a number once its thousands separators are dropped ("1,299.00")."""
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def _named(value: str, instruction: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(value.lower())}(?![\w-])", instruction) is not None


def entity_filter(instruction: str, rows: list[dict[str, Any]]) -> dict[str, str]:
    """``{field: value}`` for each field of ``rows`` holding several values of which the instruction names
    exactly one: a name ("Cedar Rapids Cardinals", "Workshops") or a year ("2021" among 2021-2024)."""
    text = _URL.sub(" ", instruction).lower()
    dates = set(_ISO_DATE.findall(text))
    keys = dict.fromkeys(k for r in rows for k in r if k not in PROVENANCE)
    found: dict[str, str] = {}
    for key in keys:
        values = {_text(r.get(key)) for r in rows} - {""}
        if len(values) < 2:
            continue
        if all(_YEAR.match(v) for v in values):
            named = [v for v in values if _named(v, text)]
        else:
            named = [v for v in values if len(v) > 3 and not is_number(v) and v not in dates and _named(v, text)]
        if len(named) == 1:
            found[key] = named[0]
    return found


def named_sources(instruction: str, sources: list[T]) -> list[T]:
    """Of several source pages, the one whose label the instruction names ("the Workshops track"): the
    same filter one level up, when each page holds one value (its label) that the rows may not repeat."""
    text = _URL.sub(" ", instruction).lower()
    named = [s for s in sources if len(getattr(s, "label", "")) > 3 and _named(s.label, text)]
    return named if len(sources) > 1 and len(named) == 1 else sources


def date_key(rows: list[dict[str, Any]], preferred: Iterable[str] = ()) -> str | None:
    """The field of ``rows`` whose values are all dates (a preferred one first)."""
    keys = [*preferred, *(k for r in rows[:1] for k in r)]
    for key in dict.fromkeys(k for k in keys if k not in PROVENANCE):
        values = [r.get(key) for r in rows if _text(r.get(key))]
        if values and all(parse_date(v) is not None and not is_number(_text(v)) for v in values):
            return key
    return None


def range_filter(instruction: str, rows: list[dict[str, Any]], preferred: Iterable[str] = ()) -> DateRange | None:
    bounds = instruction_range(instruction)
    key = date_key(rows, preferred) if bounds else None
    return DateRange(key=key, start=bounds[0], end=bounds[1]) if bounds and key else None


def row_matches(row: Mapping[str, Any], equals: Mapping[str, str], dates: Mapping[str, str] | None) -> bool:
    if any(_text(row.get(key)) != _text(value) for key, value in equals.items()):
        return False
    if dates:
        day = parse_date(row.get(dates["key"]))
        return day is not None and date.fromisoformat(dates["start"]) <= day <= date.fromisoformat(dates["end"])
    return True


def matching(rows: list[dict[str, Any]], equals: Mapping[str, str] | None = None,
             dates: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The rows that satisfy the filter (what every generated program calls before writing)."""
    return [row for row in rows if row_matches(row, equals or {}, dates)]


def covers(days: list[date], start: str, end: str) -> bool:
    """The collected dates reach both ends of the range (within :data:`COVERAGE_SLACK`)."""
    if not days:
        return False
    return (min(days) - date.fromisoformat(start) <= COVERAGE_SLACK
            and date.fromisoformat(end) - max(days) <= COVERAGE_SLACK)
