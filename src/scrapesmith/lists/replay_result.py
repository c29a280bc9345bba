"""What a replay gives back: its rows, and an account of every item it read but did not keep.

:class:`ReplayResult` holds the rows, the per-item failures, the items dropped by reason (a repeated item URL
or node), the saved-page links not followed and why, and the warnings (a requested column empty in most rows,
:func:`empty_column_warnings`); :meth:`ReplayResult.accounting` is the one line each that a run must show.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

EMPTY_COLUMN_SHARE = 0.5
REPEATED_URL = "repeated item (same item URL as an earlier item)"
REPEATED_NODE = "repeated item (same element on the same page)"


@dataclass
class ReplayResult:
    rows: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, str]] = field(default_factory=list)
    pages: int = 0
    items_seen: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    detail_pages: int = 0
    llm_calls: int = 0
    seconds: float = 0.0
    stop_reason: str = ""
    columns: list[str] = field(default_factory=list)
    #: the list pages read, in order (the start page, then each page pagination reached)
    page_urls: list[str] = field(default_factory=list)
    #: links of saved pages not followed, by what they were for and why (one line each in the accounting)
    not_followed: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: the first such link for each, to show
    not_followed_example: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def rows_per_s(self) -> float:
        return len(self.rows) / self.seconds if self.seconds else 0.0

    @property
    def duplicates(self) -> int:
        return self.dropped[REPEATED_URL] + self.dropped[REPEATED_NODE]

    def accounting(self) -> list[str]:
        """One line per reason items were dropped, then the warnings: what the run output must show."""
        lines = [f"dropped {count} of {self.items_seen} items: {reason}" for reason, count in self.dropped.items()]
        lines += [f"{count} {what} not followed: {why} (e.g. {self.not_followed_example[(what, why)]})"
                  for (what, why), count in self.not_followed.items()]
        return [*lines, *self.warnings]

    def merge(self, other: ReplayResult) -> None:
        """Add another run's rows and counts (the same program run from another start page)."""
        self.rows.extend(other.rows)
        self.failures.extend(other.failures)
        self.pages += other.pages
        self.page_urls.extend(other.page_urls)
        self.items_seen += other.items_seen
        self.dropped.update(other.dropped)
        self.not_followed.update(other.not_followed)
        for key, url in other.not_followed_example.items():
            self.not_followed_example.setdefault(key, url)
        self.detail_pages += other.detail_pages
        self.llm_calls += other.llm_calls
        self.seconds += other.seconds
        self.warnings = empty_column_warnings(self.rows, other.columns) if other.columns else self.warnings

    def run_record(self) -> dict[str, Any]:
        """The run's counts and warnings as JSON-ready data (written next to the rows by the CLI)."""
        return {
            "rows": len(self.rows),
            "pages": self.pages,
            "items_seen": self.items_seen,
            "dropped": dict(self.dropped),
            "not_followed": [{"link": what, "reason": why, "count": count, "example": self.not_followed_example[(what, why)]}
                             for (what, why), count in self.not_followed.items()],
            "warnings": self.warnings,
            "failures": self.failures,
            "detail_pages": self.detail_pages,
            "llm_calls": self.llm_calls,
            "seconds": round(self.seconds, 3),
            "stop_reason": self.stop_reason,
        }


def empty_column_warnings(rows: list[dict[str, Any]], columns: list[str]) -> list[str]:
    """A warning for each requested column that is empty in most rows (a mapping that found nothing)."""
    if not rows:
        return []
    warnings = []
    for column in columns:
        empty = sum(1 for row in rows if not str(row.get(column, "")).strip())
        if empty > EMPTY_COLUMN_SHARE * len(rows):
            warnings.append(f"column {column!r} is empty in {empty} of {len(rows)} rows")
    return warnings
