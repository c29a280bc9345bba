"""Inside a worker (a pool process, a Ray task, or the driver itself): fetch a batch, run the program on
each page, write the batch's shard (its rows and what became of each URL), and tell the driver only the
counts.

``process_batch`` never loses a URL: a page that cannot be fetched, or on which the program fails, becomes
an error row with its reason; a page the server says is unchanged (304) is recorded without rows. Each
worker keeps one fetcher per run, so its politeness and robots.txt state carry from batch to batch;
robots.txt comes with the jobs (fetched once per host by the driver), not from every worker again.
"""

from __future__ import annotations

import os
import socket
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from scrapesmith.io import timestamp
from scrapesmith.scale.limits import SharedThrottle
from scrapesmith.scale.shards import write_shard
from scrapesmith.scale.views import BatchJob, BatchOutcome, FetchOptions, PageRecord, PageTask, Validators
from scrapesmith.web import (
    FetchError,
    FileFetcher,
    HostThrottle,
    HttpFetcher,
    Page,
    RobotsFetch,
    RoutingFetcher,
    WarcReplayFetcher,
    WarcWriter,
    is_web_url,
)

_WORKER: dict[str, Any] = {}
ERRORS_PER_BATCH = 10
"""Errors a batch names to the driver (to show as the run goes); all of them are in its shard."""
Entry = tuple[str, dict[str, Any]]


class ShippedRobots:
    """robots.txt answers the driver fetched, handed to this worker's fetcher; any other origin is
    fetched here as usual."""

    def __init__(self) -> None:
        self.answers: dict[str, tuple[int, str] | None] = {}
        self.fallback: RobotsFetch | None = None

    def __call__(self, robots_url: str) -> tuple[int, str] | None:
        if robots_url in self.answers or self.fallback is None:
            return self.answers.get(robots_url)
        return self.fallback(robots_url)


def run_fetcher(options: FetchOptions, schedule: Any = None, robots: RobotsFetch | None = None) -> RoutingFetcher:
    """The fetcher a run uses everywhere: HTTP under the run's rules (and its shared schedule), files."""
    throttle: HostThrottle | None = None
    if schedule is not None:
        from scrapesmith.config import get_settings

        settings = get_settings()
        delay = settings.politeness_delay if options.delay is None else options.delay
        throttle = SharedThrottle(delay, settings.max_per_host, schedule)
    http = HttpFetcher(allow_hosts=list(options.allow_hosts), delay=options.delay,
                       respect_robots=options.respect_robots, retries=options.retries, throttle=throttle,
                       robots_source=robots)
    return RoutingFetcher(http=http, file=FileFetcher())


def _worker_fetcher(job: BatchJob) -> RoutingFetcher:
    """This worker's fetcher for ``job``'s run (a new run closes the last one's)."""
    if _WORKER.get("run") != job.run_token:
        if "fetcher" in _WORKER:
            _WORKER.pop("fetcher").close()
        robots = ShippedRobots()
        fetcher = run_fetcher(job.options, job.schedule, robots)
        robots.fallback = fetcher.http.fetch_robots
        _WORKER.update(run=job.run_token, fetcher=fetcher, robots=robots)
    _WORKER["robots"].answers.update(job.robots)
    return _WORKER["fetcher"]


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def process_batch(job: BatchJob) -> BatchOutcome:
    """Every page of ``job``, its rows in one shard; the records say what became of each URL. The first
    batch of a pass also keeps its first pages in the run's archive (:func:`archive_path`)."""
    fetcher = _worker_fetcher(job)
    if job.options.concurrency <= 1:
        done = [_process_page(job, fetcher, task) for task in job.tasks]
    else:
        with ThreadPoolExecutor(max_workers=job.options.concurrency, thread_name_prefix="page") as pool:
            done = list(pool.map(lambda task: _process_page(job, fetcher, task), job.tasks))
    if job.index == 0:
        _archive(job, [page for _record, _entries, page in done if page is not None])
    return finish_batch(job, [(record, entries) for record, entries, _page in done])


ARCHIVED_PAGES = 20
"""Pages of a pass kept in its archive: enough for ``heal`` to mend a spec on the pages that drifted."""


def archive_path(shard: str | Path, generation: int) -> Path:
    """Where a pass of a run keeps its first pages as they were read: ``RUN_DIR/pages-g0001.warc.gz``."""
    return Path(shard).parent.parent / f"pages-g{generation:04d}.warc.gz"


def archived_pages(run_dir: Path) -> list[Page]:
    """The pages a run kept as it read them (its latest pass first; none when it kept none)."""
    archives = sorted(Path(run_dir).glob("pages-g*.warc.gz"), reverse=True)
    return [page for archive in archives for page in WarcReplayFetcher(archive).pages()]


def _archive(job: BatchJob, pages: list[Page]) -> None:
    """Write the pass's first pages to its archive (whole, under a temporary name, then renamed)."""
    target = archive_path(job.shard, job.generation)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    with WarcWriter(partial) as writer:
        for page in pages[:ARCHIVED_PAGES]:
            writer.write(page)
    os.replace(partial, target)


def finish_batch(job: BatchJob, done: list[tuple[PageRecord, list[Entry]]]) -> BatchOutcome:
    """Write the batch's shard (what became of each URL, then its rows) and sum it up for the driver."""
    entries = [entry for _record, page_entries in done for entry in page_entries]
    records = sorted([*job.kept, *(record for record, _ in done)], key=lambda record: record.position)
    write_shard(job.shard, records, entries)
    counts = Counter(record.status for record in records)
    errors = tuple((record.url, record.error) for record in records if record.error)[:ERRORS_PER_BATCH]
    return BatchOutcome(job.index, job.shard, len(entries), dict(counts), errors, worker_name())


def _process_page(job: BatchJob, fetcher: RoutingFetcher, task: PageTask,
                  ) -> tuple[PageRecord, list[Entry], Page | None]:
    """What became of one URL, its rows, and the page when the program read it."""
    try:
        page = _fetch(fetcher, task)
    except FetchError as exc:
        return (*failed_page(job.program, task, str(exc)), None)
    except Exception as exc:  # noqa: BLE001 - one page's failure is recorded, the batch goes on
        return (*failed_page(job.program, task, _describe(exc)), None)
    etag, last_modified = validators_of(page)
    if page.status == 304:
        old_etag, old_modified = task.validators or (None, None)
        return PageRecord(task.position, task.url, "unchanged", 0, etag or old_etag,
                          last_modified or old_modified), [], None
    try:
        rows = job.program.rows(page, fetcher)
    except Exception as exc:  # noqa: BLE001 - a program that fails on one page fails that page only
        return (*failed_page(job.program, task, _describe(exc), page), None)
    record = PageRecord(task.position, task.url, "ok", len(rows), etag, last_modified)
    return record, [(task.url, row) for row in rows], page


def _fetch(fetcher: RoutingFetcher, task: PageTask) -> Page:
    if task.validators is not None and is_web_url(task.url):
        return fetcher.http.fetch(task.url, headers=conditional_headers(task.validators))
    return fetcher.fetch(task.url)


def failed_page(program: Any, task: PageTask, error: str, page: Page | None = None) -> tuple[PageRecord, list[Entry]]:
    """An error row in the program's columns, with what provenance there is."""
    row = {**dict.fromkeys(program.columns), "source_url": page.url if page else task.url,
           "fetched_at": timestamp(page.fetched_at) if page else None, "program_id": program.program_id,
           "error": error}
    return PageRecord(task.position, task.url, "failed", 1, error=error), [(task.url, row)]


def conditional_headers(validators: Validators) -> dict[str, str]:
    etag, last_modified = validators
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    return headers


def validators_of(page: Page) -> Validators:
    """The page's ``ETag`` and ``Last-Modified`` headers, if the server gave them."""
    lowered = {name.lower(): value for name, value in page.headers.items()}
    return lowered.get("etag"), lowered.get("last-modified")


def _describe(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{exc.__class__.__name__}: {text}".rstrip(": ")
