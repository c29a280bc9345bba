"""Profile a program's output, and tell whether a replay's output still looks like it. No model.

Every check reads as a sentence and has a threshold a person can reason about:

* **fill** — a column is drifted when it is filled on less than half as many pages as when it was forged,
  and so few filled pages would happen by chance less than once in a hundred runs on an unchanged site
  (binomial tail, with the forged rate estimated as if one more seed page were filled and one empty, so
  three seeds never claim certainty);
* **kind** — a column whose forged values were mostly of one typed kind (a price, a date, a URL …) is drifted
  when fewer than half of its filled values still are;
* **length** — drifted when the median value is over three times the longest forged value (plus a line's
  worth), or under a third of the shortest: the selector now reads a container or a fragment;
* **items** — a list is drifted when the median number of items per start page is under half the fewest
  or over twice the most seen when it was recorded.

The kind of a value comes from the capability that forged the program (``kind_of``), so drift and the
forging engine agree on what a price or a date is.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from scrapesmith.drift.views import TEXT, ColumnProfile, Drift, DriftReport, OutputProfile
from scrapesmith.io.schema import is_empty

KindOf = Callable[[str], str | None]
CHANCE = 0.01
"""Fill drops rarer than this on an unchanged site are drift."""
KIND_KEPT = 0.5
LENGTH_FACTOR = 3
LENGTH_SLACK = 20
ITEMS_FACTOR = 2
MIN_VALUES = 3
"""The kind and length checks need at least this many filled values to speak."""
SAMPLE = 200
_NUMBER = re.compile(r"[$£€¥₹]?\s?(-?\d[\d,]*(?:\.\d+)?)\s?%?")


def cell_values(value: Any) -> list[str]:
    """A cell's values: one for a single value, several for a list, none for an empty cell. A CSV cell
    holding a JSON list (how ``io`` writes several values) counts as that list."""
    if isinstance(value, str) and value.startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            pass
    values = value if isinstance(value, list | tuple) else [value]
    return [str(v).strip() for v in values if not is_empty(v) and str(v).strip()]


def cell_text(value: Any) -> str:
    """A cell as one string: its first value, '' for an empty cell."""
    return next(iter(cell_values(value)), "")


def number_in(text: str) -> float | None:
    """The value as a number when it is one (``$1,299.00``, ``42``, ``7.5%``); not a number inside words."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    try:
        return float(match.group(1).replace(",", ""))
    except ValueError:
        return None


def profile_column(name: str, values: Sequence[Any], kind_of: KindOf, *, seed: bool = False) -> ColumnProfile:
    """A column's profile from its cells (one per page or item); ``seed`` keeps the values for ``heal``."""
    texts = [cell_text(v) for v in values]
    filled = [t for t in texts if t]
    kinds = Counter(kind_of(t) or TEXT for t in filled)
    numbers = [n for n in (number_in(t) for t in filled[:SAMPLE]) if n is not None]
    return ColumnProfile(name=name, pages=len(texts), filled=len(filled), kinds=dict(kinds),
                         lengths=[len(t) for t in filled[:SAMPLE]], numbers=numbers,
                         seed_values=[cell_values(v) for v in values[:SAMPLE]] if seed else [])


def profile_rows(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], kind_of: KindOf, *,
                 seed: bool = False, items_per_page: Iterable[int] = ()) -> OutputProfile:
    """The profile of a program's output rows (error rows excluded: a failed page says nothing of the site)."""
    good = [row for row in rows if not row.get("error")]
    return OutputProfile(columns=[profile_column(c, [row.get(c) for row in good], kind_of, seed=seed)
                                  for c in columns],
                         items_per_page=list(items_per_page))


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _fill_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    if not was.filled or not now.pages or now.fill_rate >= was.fill_rate / 2:
        return None
    expected = (was.filled + 1) / (was.pages + 2)
    if binomial_tail(now.filled, now.pages, expected) >= CHANCE:
        return None
    return Drift(column=was.name, check="fill", evidence=f"{was.name}: {now.filled} of {now.pages} filled, "
                                                         f"was {was.filled} of {was.pages}")


def _kind_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    kind = was.main_kind
    if kind is None or now.filled < MIN_VALUES:
        return None
    kept = now.kinds.get(kind, 0)
    if kept / now.filled >= KIND_KEPT:
        return None
    return Drift(column=was.name, check="kind", evidence=f"{was.name}: {kept} of {now.filled} values read as "
                                                         f"{kind}, was {was.kinds.get(kind, 0)} of {was.filled}")


def _length_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    if not was.lengths or len(now.lengths) < MIN_VALUES:
        return None
    shortest, longest = min(was.lengths), max(was.lengths)
    median = statistics.median(now.lengths)
    if shortest / LENGTH_FACTOR <= median <= longest * LENGTH_FACTOR + LENGTH_SLACK:
        return None
    return Drift(column=was.name, check="length", evidence=f"{was.name}: median length {median:g} characters, "
                                                           f"was {shortest}–{longest}")


def _items_drift(was: Sequence[int], now: Sequence[int]) -> Drift | None:
    if not was or not now:
        return None
    median = statistics.median(now)
    if min(was) / ITEMS_FACTOR <= median <= max(was) * ITEMS_FACTOR:
        return None
    spread = statistics.pstdev(was)
    return Drift(column="", check="items", evidence=f"items per page {median:g}, was "
                                                    f"{statistics.mean(was):.0f}±{spread:.0f}")


def compare(forged: OutputProfile | None, rows: Sequence[Mapping[str, Any]], kind_of: KindOf, *,
            items_per_page: Sequence[int] = ()) -> DriftReport:
    """Check a replay's rows (and, for a list, its items per start page) against the forged profile."""
    if forged is None:
        return DriftReport(checked=False, pages=len(rows))
    now = profile_rows(rows, [c.name for c in forged.columns], kind_of, items_per_page=items_per_page)
    drifts: list[Drift] = []
    items = _items_drift(forged.items_per_page, now.items_per_page)
    if items is not None:
        drifts.append(items)
    for was in forged.columns:
        current = now.column(was.name)
        if current is None:
            continue
        found = _fill_drift(was, current) or _kind_drift(was, current) or _length_drift(was, current)
        if found is not None:
            drifts.append(found)
    return DriftReport(checked=True, pages=len(rows), drifts=drifts, now=now)
