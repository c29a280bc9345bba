"""Profile a program's output, and tell whether a replay's output still looks like it. No model.

Every check reads as a sentence and has a threshold a person can reason about:

* **fill** — a column is drifted when it is filled on less than half as many pages as when it was forged,
  and so few filled pages would happen by chance less than once in a hundred runs on an unchanged site
  (binomial tail, with the forged rate estimated as if one more seed page were filled and one empty, so
  three seeds never claim certainty; seed pages that read the same values count once — one observation);
* **several** — a column that read several values on most seed pages (a car's city and highway mileage)
  is drifted when, by the same test as *fill*, its cells now rarely hold more than one: half the field is gone;
* **kind** — a column whose forged values were mostly of one typed kind (a price, a date, a URL …) is drifted
  when fewer than half of its filled values still are;
* **length** — drifted when the median value is over three times the longest forged value (plus a line's
  worth), or under a third of the shortest: the selector now reads a container or a fragment;
* **cut** — a column whose program cut the same words away beside its value on every seed page (the
  template's "(See All Contributors)" after an author, a label) is drifted when half of its filled values now
  hold those words: the text around the value changed, and the cut no longer takes them off;
* **rows** — a program that gave rows when forged gives none at all (every other check needs a row to speak);
* **items** — a list is drifted when the median number of items per start page is under half the fewest
  or over twice the most seen when it was recorded.

The kind of a value comes from the capability that forged the program (``kind_of``), so drift and the
forging engine agree on what a price or a date is.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from scrapesmith.drift.views import TEXT, ColumnProfile, Drift, DriftReport, OutputProfile
from scrapesmith.io import is_empty

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
        with contextlib.suppress(ValueError):  # text that only starts with "[" stays one value
            value = json.loads(value)
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


class _ColumnTally:
    """One column's profile built one cell at a time, in bounded memory (samples of :data:`SAMPLE`)."""

    def __init__(self, name: str, kind_of: KindOf, seed: bool, cut: Sequence[str] = ()) -> None:
        self.name, self.kind_of, self.seed, self.cut = name, kind_of, seed, tuple(cut)
        self.pages = self.filled = self.several = self.held_cut = 0
        self.kinds: Counter[str] = Counter()
        self.lengths: list[int] = []
        self.numbers: list[float] = []
        self.seed_values: list[list[str]] = []

    def add(self, value: Any) -> None:
        values = cell_values(value)
        self.pages += 1
        if self.seed and len(self.seed_values) < SAMPLE:
            self.seed_values.append(values)
        if not values:
            return
        text = values[0]
        self.filled += 1
        self.several += len(values) > 1
        self.kinds[self.kind_of(text) or TEXT] += 1
        self.held_cut += any(words in text for words in self.cut)
        if len(self.lengths) < SAMPLE:
            self.lengths.append(len(text))
            number = number_in(text)
            if number is not None:
                self.numbers.append(number)

    def profile(self) -> ColumnProfile:
        return ColumnProfile(name=self.name, pages=self.pages, filled=self.filled, several=self.several, kinds=dict(self.kinds),
                             lengths=self.lengths, numbers=self.numbers, seed_values=self.seed_values,
                             held_cut=self.held_cut)


def profile_column(name: str, values: Iterable[Any], kind_of: KindOf, *, seed: bool = False) -> ColumnProfile:
    """A column's profile from its cells (one per page or item); ``seed`` keeps the values for ``heal``."""
    tally = _ColumnTally(name, kind_of, seed)
    for value in values:
        tally.add(value)
    return tally.profile()


def profile_rows(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], kind_of: KindOf, *,
                 seed: bool = False, items_per_page: Iterable[int] = (),
                 cut: Mapping[str, Sequence[str]] | None = None) -> OutputProfile:
    """The profile of a program's output rows, read once in bounded memory (a dataset of any size); error
    rows are left out: a failed page says nothing of the site. ``cut``: per column, words its values are
    counted as holding (what the forged program cut away)."""
    tallies = [_ColumnTally(c, kind_of, seed, (cut or {}).get(c, ())) for c in columns]
    for row in rows:
        if row.get("error"):
            continue
        for tally in tallies:
            tally.add(row.get(tally.name))
    return OutputProfile(columns=[t.profile() for t in tallies], items_per_page=list(items_per_page))


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _rare(was: int, was_of: int, now: int, now_of: int) -> bool:
    """``now`` of ``now_of`` is under half the rate of ``was`` of ``was_of``, and that few would happen by
    chance less than :data:`CHANCE` of the time (the old rate taken as if one more were in and one out)."""
    if not was or not now_of or now / now_of >= was / was_of / 2:
        return False
    return binomial_tail(now, now_of, (was + 1) / (was_of + 2)) < CHANCE


def _fill_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    if not _rare(*was.forged_fill, now.filled, now.pages):
        return None
    return Drift(column=was.name, check="fill", evidence=f"{was.name}: {now.filled} of {now.pages} filled, "
                                                         f"was {was.filled} of {was.pages}")


def _several_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    several, filled = was.forged_several
    if not filled or several * 2 <= filled or not _rare(several, filled, now.several, now.filled):
        return None
    return Drift(column=was.name, check="several", evidence=f"{was.name}: {now.several} of {now.filled} cells "
                                                            f"hold several values, was {several} of {filled}")


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


def _cut_drift(was: ColumnProfile, now: ColumnProfile) -> Drift | None:
    if not was.cut or now.filled < MIN_VALUES or now.held_cut / now.filled < KIND_KEPT:
        return None
    words = " / ".join(repr(w) for w in was.cut)
    return Drift(column=was.name, check="cut", evidence=f"{was.name}: {now.held_cut} of {now.filled} values hold "
                                                        f"{words}, cut away on every seed page")


def _items_drift(was: Sequence[int], now: Sequence[int]) -> Drift | None:
    if not was or not now:
        return None
    median = statistics.median(now)
    if min(was) / ITEMS_FACTOR <= median <= max(was) * ITEMS_FACTOR:
        return None
    spread = statistics.pstdev(was)
    return Drift(column="", check="items", evidence=f"items per page {median:g}, was "
                                                    f"{statistics.mean(was):.0f}±{spread:.0f}")


def compare(forged: OutputProfile | None, rows: Iterable[Mapping[str, Any]], kind_of: KindOf, *,
            items_per_page: Sequence[int] = ()) -> DriftReport:
    """Check a replay's rows (and, for a list, its items per start page) against the forged profile; the
    rows are read once, so a dataset of any size can be streamed through."""
    if forged is None:
        return DriftReport(checked=False, pages=sum(1 for _ in rows))
    counted = _Counted(rows)
    now = profile_rows(counted, [c.name for c in forged.columns], kind_of, items_per_page=items_per_page,
                       cut={c.name: c.cut for c in forged.columns if c.cut})
    drifts: list[Drift] = []
    items = _items_drift(forged.items_per_page, now.items_per_page)
    forged_rows = max((c.pages for c in forged.columns), default=0)
    if items is not None:
        drifts.append(items)
    elif forged_rows and not counted.count:  # a list whose items per page were not counted says it here
        drifts.append(Drift(column="", check="rows", evidence=f"no rows read, was {forged_rows} when forged"))
    for was in forged.columns:
        current = now.column(was.name)
        if current is None:
            continue
        found = (_fill_drift(was, current) or _several_drift(was, current) or _kind_drift(was, current)
                 or _length_drift(was, current) or _cut_drift(was, current))
        if found is not None:
            drifts.append(found)
    return DriftReport(checked=True, pages=counted.count, drifts=drifts, now=now, was=forged)


class _Counted:
    """Rows passed through, counted (error rows included: they are pages of the run)."""

    def __init__(self, rows: Iterable[Mapping[str, Any]]) -> None:
        self.rows, self.count = rows, 0

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        for row in self.rows:
            self.count += 1
            yield row
