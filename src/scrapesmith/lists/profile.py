"""A list program's output profile: recorded from its first run, checked after every replay.

Besides each column (fill, value kinds, lengths, see :mod:`scrapesmith.drift`), a list keeps how many items
a list page gave, so a replay that reads 3 items where it read 25 is drift even when those 3 look right.
Value kinds are induce's, the engine lists uses for its fields.
"""

from __future__ import annotations

from pathlib import Path

from scrapesmith.drift import DriftReport, OutputProfile, compare, profile_rows
from scrapesmith.induce import kind_of
from scrapesmith.io import iter_rows
from scrapesmith.lists.replay import ReplayResult
from scrapesmith.lists.views import ListProgram


def items_per_page(result: ReplayResult) -> list[int]:
    """Items per list page of one replay (its mean over the pages pagination reached); none if it read none."""
    return [round(result.items_seen / result.pages)] if result.pages else []


def profile_of(result: ReplayResult, columns: list[str]) -> OutputProfile:
    return profile_rows(result.rows, columns, kind_of, seed=True, items_per_page=items_per_page(result))


def check_replay(program: ListProgram, result: ReplayResult) -> DriftReport:
    """One replay's rows and items per page against the program's profile."""
    return compare(program.profile, result.rows, kind_of, items_per_page=items_per_page(result))


def check_dataset(program: ListProgram, dataset: Path) -> DriftReport:
    """A many-start-page run's dataset against the program's columns (items per page are not in it)."""
    if program.profile is None:
        return compare(None, [], kind_of)
    return compare(program.profile, iter_rows(Path(dataset)), kind_of)
