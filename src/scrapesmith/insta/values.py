"""Values a task names without quoting them, recognised by their kind: dates, times and numbers.

"Select 05/12/2016 as the date", "Select -3 with the spinner", "Set the sliders to the combination [3, 15, 7]":
the value to set is in the task, but not in quotes, so the quoted-value grounding (``insta.candidates``) does
not see it. A value of a known kind is recognised here wherever it stands, and paired (in
``insta.candidates``) only with fields that take that kind (a date field, a number field, a slider), so a
number in a task never goes into a plain text box on its own. Ordinals ("the 2nd text area") are positions,
not values, and are left out.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["date", "time", "number"]

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH = {name: number for number, name in enumerate(MONTHS, start=1)} | {
    name[:3]: number for number, name in enumerate(MONTHS, start=1)}
_NUMERIC_DATE = re.compile(r"(?<![\w/.-])(\d{1,4})([/.-])(\d{1,2})\2(\d{2,4})(?![\w/.-])")
_NAMED_DATE = re.compile(r"\b(" + "|".join(MONTHS) + r"|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?)"
                         r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b", re.IGNORECASE)
_TIME = re.compile(r"(?<![\w:])(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?![\w:])", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w./:-])(-?\d+(?:\.\d+)?)(?![\w/:]|\.\d)")
_RANGE = re.compile(r"(-?\d+)\s*(?:-|–|to|and)\s*(-?\d+)")


@dataclass(frozen=True)
class Value:
    """A value of the task: its words as written, its kind, and where it stands in the task (for order)."""

    text: str
    kind: Kind
    at: int
    date: dt.date | None = None
    time: dt.time | None = None
    number: float | None = None

    def for_field(self, input_type: str | None) -> str:
        """The value as the field takes it: ISO for a native date/time input, as written otherwise."""
        if self.date is not None and input_type in ("date", "datetime-local"):
            return self.date.isoformat()
        if self.date is not None and input_type == "month":
            return self.date.strftime("%Y-%m")
        if self.time is not None and input_type == "time":
            return self.time.strftime("%H:%M")
        return self.text


def _year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def _numeric_date(match: re.Match[str]) -> dt.date | None:
    first, _, second, third = match.groups()
    try:
        if len(first) == 4:  # 2016-05-12
            return dt.date(int(first), int(second), int(third))
        month, day = (int(first), int(second)) if int(first) <= 12 else (int(second), int(first))  # US order first
        return dt.date(_year(third), month, day)
    except ValueError:
        return None


def _time(match: re.Match[str]) -> dt.time | None:
    hour, minute, second, meridiem = match.groups()
    hour = int(hour)
    if meridiem:
        hour = hour % 12 + (12 if meridiem.lower().startswith("p") else 0)
    try:
        return dt.time(hour, int(minute), int(second or 0))
    except ValueError:
        return None


def task_values(task: str) -> list[Value]:
    """Every date, time and number of ``task`` in order; the digits of a date or a time are not numbers too."""
    found: list[Value] = []
    taken: list[tuple[int, int]] = []
    for match in _NUMERIC_DATE.finditer(task):
        date = _numeric_date(match)
        if date is not None:
            found.append(Value(match.group(0), "date", match.start(), date=date))
            taken.append(match.span())
    for match in _NAMED_DATE.finditer(task):
        month = _MONTH.get(match.group(1).lower().rstrip(".")[:3] if len(match.group(1)) > 3 else match.group(1).lower())
        try:
            date = dt.date(int(match.group(3)), month or 0, int(match.group(2)))
        except ValueError:
            continue
        found.append(Value(match.group(0), "date", match.start(), date=date))
        taken.append(match.span())
    for match in _TIME.finditer(task):
        when = _time(match)
        if when is not None:
            found.append(Value(match.group(0).strip(), "time", match.start(), time=when))
            taken.append(match.span())
    for match in _NUMBER.finditer(task):
        if any(start <= match.start() < end for start, end in taken):
            continue
        found.append(Value(match.group(1), "number", match.start(1), number=float(match.group(1))))
    return sorted(found, key=lambda value: value.at)


def number_range(text: str) -> tuple[float, float] | None:
    """The bounds a text states ("between 0-9", "from 1 to 100"), low first; None when it states none."""
    match = _RANGE.search(text)
    if match is None:
        return None
    low, high = sorted((float(match.group(1)), float(match.group(2))))
    return (low, high) if low < high else None


def as_number(text: str) -> float | None:
    """``text`` read as one number (a readout, a cell, a field's value), else None."""
    cleaned = text.strip().replace(",", "").replace("\u2212", "-")
    try:
        return float(cleaned)
    except ValueError:
        return None


def same_value(typed: str, wanted: str) -> bool:
    """Two values are the same as numbers when both are numbers ("7" and "7.0"), else as text."""
    left, right = as_number(typed), as_number(wanted)
    if left is not None and right is not None:
        return left == right
    return typed.strip() == wanted.strip()


def same_date_or_value(held: str, value: str) -> bool:
    """:func:`same_value`, or the same date written two ways (a picker writes its own format; ISO for inputs)."""
    if same_value(held, value):
        return True
    dates = [[found.date for found in task_values(text) if found.date] for text in (held, value)]
    return bool(dates[0]) and dates[0][:1] == dates[1][:1]


#: "an item that starts with "Sa" and ends with "ino"": what the task asks of a value without giving it whole.
_CONSTRAINT = re.compile(r"\b(starts?|begins?|ends?)\s+with\s+[\"“‘']([^\"”’']+)[\"”’']|\bcontains?\s+[\"“‘']([^\"”’']+)[\"”’']",
                         re.IGNORECASE)


def value_constraints(text: str) -> list[tuple[str, str]]:
    """The constraints ``text`` puts on a value: ("starts", "Sa"), ("ends", "ino"), ("contains", "x")."""
    out = []
    for match in _CONSTRAINT.finditer(text):
        if match.group(3) is not None:
            out.append(("contains", match.group(3)))
        else:
            out.append(("starts" if match.group(1).casefold().startswith(("start", "begin")) else "ends",
                        match.group(2)))
    return out


def satisfies(value: str, constraints: list[tuple[str, str]]) -> bool:
    """Whether ``value`` meets every constraint, as written (a page checks "starts with" case and all)."""
    tests = {"starts": str.startswith, "ends": str.endswith, "contains": str.__contains__}
    return bool(value) and all(tests[kind](value.strip(), part) for kind, part in constraints)
