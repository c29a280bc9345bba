"""The data of a scaled run: what a worker is given (:class:`BatchJob`), what it hands back
(:class:`BatchOutcome`), and what the run adds up to (:class:`RunSummary`).

Everything a job carries is picklable, so the same job travels to a pool process or a Ray task; the
program itself is any object that keeps to :class:`PageProgram`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from scrapesmith.web import Fetcher, Page

PageStatus = Literal["ok", "failed", "unchanged", "kept"]
"""What became of one URL in a run: rows written (``ok``), an error row written (``failed``), the server
said 304 Not Modified (``unchanged``), or it was done before and could not be asked (``kept``, not fetched)."""
ROW_STATUSES: tuple[PageStatus, ...] = ("ok", "failed")
PAGE_STATUSES: tuple[PageStatus, ...] = ("ok", "failed", "unchanged", "kept")

Validators = tuple[str | None, str | None]
"""``(ETag, Last-Modified)`` as a server gave them, for a conditional request next time."""


class PageProgram(Protocol):
    """What a scaled run runs on every URL: a scraper spec, a list program, ... (picklable).

    ``rows`` gets the page fetched for the URL and the worker's fetcher, for programs that read more
    pages from there (pagination, detail pages); every row carries its provenance columns. ``columns``
    are the data columns an error row leaves empty; ``schema`` the types a program declares, if any.
    """

    program_id: str
    columns: list[str]
    schema: dict[str, str] | None

    def rows(self, page: Page, fetcher: Fetcher) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class FetchOptions:
    """How every worker fetches: the same politeness, robots and address rules as a one-process run."""

    allow_hosts: tuple[str, ...] = ()
    delay: float | None = None
    respect_robots: bool = True
    concurrency: int = 1
    retries: int = 3


@dataclass(frozen=True)
class PageTask:
    """One URL of a batch: where it stands in the input, and the validators to ask "changed since?" with."""

    position: int
    url: str
    validators: Validators | None = None


@dataclass(frozen=True)
class PageRecord:
    """What the manifest keeps for one URL of a batch."""

    position: int
    url: str
    status: PageStatus
    rows: int = 0
    etag: str | None = None
    last_modified: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class BatchJob:
    """A slice of the input for one worker; its rows go to ``shard`` (a path every worker can reach).

    ``tasks`` are the URLs to fetch; ``kept`` the URLs of the slice done before that need no fetch (an
    incremental run without validators to ask with); ``digest`` names the slice's URLs for a resume.
    """

    run_token: str
    generation: int
    index: int
    digest: str
    tasks: tuple[PageTask, ...]
    shard: str
    program: Any
    options: FetchOptions
    kept: tuple[PageRecord, ...] = ()
    robots: dict[str, tuple[int, str] | None] = field(default_factory=dict)
    schedule: Any = None


@dataclass(frozen=True)
class BatchOutcome:
    """A finished batch as the driver sees it: counts, the first errors and where its shard is.

    What became of each URL (:class:`PageRecord`) is in the shard the worker wrote, not here: the driver
    handles O(1) per batch however many pages or rows the batch had, and the manifest reads the records
    from the shard only when a later question needs them (``--since``, the failures of a run).
    """

    index: int
    shard: str | None
    rows: int
    counts: dict[str, int]
    errors: tuple[tuple[str, str], ...] = ()
    worker: str = ""

    @property
    def pages(self) -> int:
        return sum(self.counts.values())


@dataclass
class RunSummary:
    """What a run did: pages by outcome, rows written, batches done before (resume) and now, and time."""

    pages: int = 0
    ok: int = 0
    failed: int = 0
    unchanged: int = 0
    kept: int = 0
    rows: int = 0
    batches: int = 0
    batches_resumed: int = 0
    pages_resumed: int = 0
    seconds: float = 0.0
    runner: str = ""
    workers: int = 0
    interrupted: bool = False
    errors: list[tuple[str, str]] = field(default_factory=list)
    first_batch_seconds: float | None = None
    first_batch_pages: int = 0

    @property
    def fetched(self) -> int:
        return self.ok + self.failed + self.unchanged

    @property
    def pages_per_second(self) -> float:
        return self.fetched / self.seconds if self.seconds else 0.0

    def first_batch_done(self, seconds: float) -> None:
        """Mark the first finished batch: what came before it is start-up (a pool's or Ray's workers
        starting and importing), not the rate the workers keep."""
        if self.first_batch_seconds is None:
            self.first_batch_seconds = seconds
            self.first_batch_pages = self.fetched

    @property
    def steady_pages_per_second(self) -> float:
        """Pages/s after the first finished batch: the rate a long run tends to, start-up left out.

        Batches in flight at the mark were partly done before it, so with W workers this can read high by
        up to W - 1 batches over the run's pages."""
        if self.first_batch_seconds is None or self.seconds <= self.first_batch_seconds:
            return 0.0
        return (self.fetched - self.first_batch_pages) / (self.seconds - self.first_batch_seconds)

    def add(self, outcome: BatchOutcome, max_errors: int = 1000) -> None:
        """Count one batch's pages; the first ``max_errors`` errors are kept to show (every one is in the
        dataset and in the manifest)."""
        self.batches += 1
        for status, count in outcome.counts.items():
            self.pages += count
            setattr(self, status, getattr(self, status) + count)
        self.rows += outcome.rows
        self.errors.extend(outcome.errors[:max(0, max_errors - len(self.errors))])
