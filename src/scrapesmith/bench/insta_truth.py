"""The demo web's truth about a proposed task: is its goal on the site, and did the episode truly reach it?

The site generator publishes every site's data (``sites.truth(name)``); the pages show exactly it. A goal
(:class:`~scrapesmith.insta.views.TaskGoal`, what the proposer read off a page) is **feasible** when the truth
holds it, independently of the page the proposer read:

* a value goal: some record of the truth (any JSON object in it) holds a value equal to the goal's value
  (:func:`same_truth_value`: as text, as a number, as a date written another way, a list as its items), and
  that record is the goal's record — its ``url`` is the goal's page, or one of its values is the record's name
  (the goal's entity contains it, or it contains the entity, or both write the same date);
* a page goal: the goal's page (path and query) is a URL of the truth (any key ending in ``url``) or a page
  the generator serves for the site (``sites.urls(name)``: a listing, a filtered view).

An episode **truly succeeds** when its goal is feasible and the answer states the truth's value (value goal),
or it ended on the goal's page (page goal). The judge's verdict is compared with that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from scrapesmith.insta import TaskGoal, Trajectory, answer_holds, dates_in, same_page

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"^[$€£]?\s*[-+]?(?:\d[\d,]*)?\.?\d+\s*%?$")


def records(truth: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in the truth, outermost first."""
    if isinstance(truth, dict):
        yield truth
        for value in truth.values():
            yield from records(value)
    elif isinstance(truth, list):
        for item in truth:
            yield from records(item)


def truth_urls(truth: Any) -> set[str]:
    found: set[str] = set()
    for record in records(truth):
        found |= {value for key, value in record.items() if key.endswith("url") and isinstance(value, str)}
    return found


def _text(value: Any) -> str:
    return _SPACE.sub(" ", str(value)).strip().casefold()


def _number(text: str) -> float | None:
    text = text.strip()
    if not _NUMBER.match(text):
        return None
    try:
        return float(re.sub(r"[$€£%,\s]", "", text))
    except ValueError:
        return None


def same_truth_value(shown: str, truth: Any) -> bool:
    """``shown`` (as a page prints it) is the truth's ``truth`` value."""
    if isinstance(truth, bool) or truth is None or isinstance(truth, dict):
        return False
    if isinstance(truth, list):
        items = [_text(item) for item in truth if not isinstance(item, (dict, list))]
        parts = [_text(part) for part in re.split(r",\s*|\s+and\s+|;\s*", shown) if part.strip()]
        return bool(items) and sorted(items) == sorted(parts)
    if _text(shown) == _text(truth):
        return True
    left, right = _number(shown), _number(str(truth))
    if left is not None and right is not None:
        return abs(left - right) < 1e-9
    shown_dates, truth_dates = dates_in(shown), dates_in(str(truth))
    return bool(shown_dates) and shown_dates == truth_dates


def _names(record: dict[str, Any], entity: str) -> bool:
    name, named_dates = _text(entity), dates_in(entity)
    for value in record.values():
        if named_dates and isinstance(value, str) and dates_in(value) == named_dates:
            return True
        if isinstance(value, str) and len(value.strip()) >= 3 and not value.startswith("/"):
            text = _text(value)
            if text == name or (len(text) >= 4 and text in name) or (len(name) >= 4 and name in text):
                return True
    return False


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def truth_value(goal: TaskGoal, truth: Any) -> Any | None:
    """The truth's value the goal asks for (``None``: the truth does not hold the goal)."""
    page = _path(goal.page)
    for record in records(truth):
        own = isinstance(record.get("url"), str) and record["url"].rstrip("/") == page.rstrip("/")
        if not own and not _names(record, goal.entity):
            continue
        for key, value in record.items():
            if key != "url" and same_truth_value(goal.value, value):
                return value
    return None


def feasible(goal: TaskGoal | None, truth: Any, served: set[str] | frozenset[str] = frozenset()) -> bool:
    """``served``: the site's page paths (with their queries), as the generator lists them."""
    if goal is None:
        return False
    if not goal.label:
        page = _path(goal.page).rstrip("/")
        return any(url.rstrip("/") == page for url in (*truth_urls(truth), *served))
    return truth_value(goal, truth) is not None


def true_success(goal: TaskGoal | None, trajectory: Trajectory | None, truth: Any,
                 served: set[str] | frozenset[str] = frozenset()) -> bool:
    if goal is None or trajectory is None or not feasible(goal, truth, served):
        return False
    if not goal.label:
        return same_page(trajectory.final_url, goal.page)
    value = truth_value(goal, truth)
    shown = value if isinstance(value, str) else ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return answer_holds(trajectory.answer, goal.value) or answer_holds(trajectory.answer, shown)
