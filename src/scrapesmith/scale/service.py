"""``run_pages``: a program over a URL list of any length, in batches, resumable, incremental, spread out.

The driver (this module) only orchestrates:

1. open the run directory: a fresh run, ``resume`` (continue its last generation) or ``since`` (a new
   generation after an earlier run, appending);
2. read the sources one line at a time and cut them into batches of ``batch_size``; a batch already
   committed is skipped (its URLs must be the ones it had: a changed list is refused, not mixed in);
3. for an incremental run, look each URL up: new or failed before is fetched, one with an ETag or a
   Last-Modified is asked "changed since?", one done before without either is kept as it was;
4. fetch robots.txt once per host for the whole run and send it with the batches;
5. hand the batches to a :class:`~scrapesmith.scale.runner.Runner` (this process, a local pool, Ray);
   workers write each batch's shard and send back its counts; the driver commits one line per batch to
   the manifest as it arrives (O(1) per batch, so many workers do not wait on it);
6. assemble the dataset from the shards, one shard at a time.

Memory stays O(batch × in-flight batches): no list of URLs, rows or results grows with the run.
"""

from __future__ import annotations

import itertools
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapesmith.io import write_row_chunks
from scrapesmith.scale.limits import shared_schedule
from scrapesmith.scale.manifest import (
    EarlierRunUnusable,
    Generation,
    ResumeMismatch,
    RunState,
    RunStateError,
    UnfinishedRun,
    batch_digest,
    run_dir_for,
)
from scrapesmith.scale.runner import Runner, WorkerDied
from scrapesmith.scale.shards import read_shard
from scrapesmith.scale.views import (
    BatchJob,
    BatchOutcome,
    FetchOptions,
    PageProgram,
    PageRecord,
    PageTask,
    RunSummary,
)
from scrapesmith.scale.worker import failed_page, finish_batch, process_batch, run_fetcher
from scrapesmith.web import HttpFetcher, InvalidUrl, is_web_url, origin_of

DEFAULT_BATCH_SIZE = 100
BatchProgress = Callable[[RunSummary], None]


@dataclass(frozen=True)
class RunPlan:
    """Where a run keeps its state and how it relates to runs before it."""

    run_dir: Path
    batch_size: int = DEFAULT_BATCH_SIZE
    resume: bool = False
    since: Path | None = None


def open_run(plan: RunPlan, program_id: str) -> tuple[RunState, Generation]:
    """The run directory ready for this run, and the generation it works on."""
    run_dir = Path(plan.run_dir)
    if plan.resume:
        return _resumed(run_dir, program_id)
    if plan.since is not None:
        return _continued(run_dir, run_dir_for(plan.since), program_id, plan.batch_size)
    if RunState.exists(run_dir):
        state = RunState(run_dir)
        last = state.last_generation()
        state.close()
        if last is not None and not last.finished:
            raise UnfinishedRun(f"{run_dir} holds an unfinished run: continue it, or remove the directory to "
                                "start over")
        shutil.rmtree(run_dir)
    state = RunState(run_dir)
    return state, state.begin(program_id, plan.batch_size)


def _resumed(run_dir: Path, program_id: str) -> tuple[RunState, Generation]:
    if not RunState.exists(run_dir):
        raise RunStateError(f"nothing to resume: {run_dir} holds no run")
    state = RunState(run_dir)
    last = state.last_generation()
    if last is None:
        return state, state.begin(program_id, 1)
    if last.program_id != program_id:
        raise ResumeMismatch(f"{run_dir} was run with program {last.program_id}, not {program_id}: a resumed "
                             "run keeps the program it began with")
    state.remove_partial_shards()
    state.index_pages(before=last.id)
    return state, last


def _continued(run_dir: Path, since_dir: Path, program_id: str, batch_size: int) -> tuple[RunState, Generation]:
    if not RunState.exists(since_dir):
        raise EarlierRunUnusable(f"{since_dir}: no run there (give the run directory or its dataset)")
    if since_dir.resolve() != run_dir.resolve():
        RunState.copy(since_dir, run_dir).close()
    state = RunState(run_dir)
    last = state.last_generation()
    if last is not None and last.program_id != program_id:
        raise EarlierRunUnusable(f"{since_dir}: that run used program {last.program_id}, not {program_id}")
    if last is not None and not last.finished:
        raise EarlierRunUnusable(f"{since_dir}: that run is unfinished; finish it first")
    state.index_pages()
    return state, state.begin(program_id, batch_size)


def run_pages(sources: Iterable[str], program: PageProgram, plan: RunPlan, runner: Runner,
              options: FetchOptions, on_batch: BatchProgress | None = None) -> tuple[RunSummary, RunState, int]:
    """Run ``program`` on every source not yet done; return the summary, the state and the generation.

    Interrupted (Ctrl-C), it stops at once: what was committed stays, ``resume`` does the rest.
    """
    state, generation = open_run(plan, program.program_id)
    summary = RunSummary(runner=runner.name, workers=runner.workers)
    started = time.monotonic()
    with shared_schedule(runner, _delay(options)) as schedule:
        planner = _BatchPlanner(state, generation, program, options, schedule, summary)
        try:
            for job, outcome in runner.map_unordered(process_batch, planner.jobs(sources)):
                outcome = outcome if isinstance(outcome, BatchOutcome) else _lost_batch(job, outcome)
                state.commit(generation.id, job.digest, outcome)
                summary.add(outcome)
                summary.first_batch_done(time.monotonic() - started)
                if on_batch is not None:
                    on_batch(summary)
        except KeyboardInterrupt:
            summary.interrupted = True
            raise
        finally:
            summary.seconds = time.monotonic() - started
            planner.close()
    state.finish(generation.id)
    return summary, state, generation.id


def _delay(options: FetchOptions) -> float:
    if options.delay is not None:
        return options.delay
    from scrapesmith.config import get_settings

    return get_settings().politeness_delay


def _lost_batch(job: BatchJob, died: Any) -> BatchOutcome:
    """A batch whose worker died on every attempt: each URL gets an error row; nothing goes missing."""
    detail = died.detail if isinstance(died, WorkerDied) else f"unexpected worker result {died!r}"
    return finish_batch(job, [failed_page(job.program, task, detail) for task in job.tasks])


class _BatchPlanner:
    """Cuts the sources into batch jobs, lazily: skips committed batches, looks URLs up, ships robots.txt."""

    def __init__(self, state: RunState, generation: Generation, program: PageProgram, options: FetchOptions,
                 schedule: Any, summary: RunSummary) -> None:
        self.state = state
        self.generation = generation
        self.program = program
        self.options = options
        self.schedule = schedule
        self.summary = summary
        self.token = uuid.uuid4().hex
        self.committed = state.committed(generation.id)
        self._robots: dict[str, tuple[int, str] | None] = {}
        self._robots_urls: dict[str, str] = {}
        self._robots_http: HttpFetcher | None = None

    def jobs(self, sources: Iterable[str]) -> Iterator[BatchJob]:
        numbered = enumerate(sources)
        for index in itertools.count():
            batch = list(itertools.islice(numbered, self.generation.batch_size))
            if not batch:
                return
            digest = batch_digest(url for _, url in batch)
            if index in self.committed:
                if self.committed[index] != digest:
                    raise ResumeMismatch(f"the URL list changed since this run began (batch {index} differs): "
                                         "a resumed run needs the same list")
                self.summary.batches_resumed += 1
                self.summary.pages_resumed += len(batch)
                continue
            tasks, kept = self._plan(batch)
            yield BatchJob(self.token, self.generation.id, index, digest, tuple(tasks),
                           str(self.state.shard_path(self.generation.id, index)), self.program, self.options,
                           tuple(kept), self._robots_for(tasks), self.schedule)

    def _plan(self, batch: list[tuple[int, str]]) -> tuple[list[PageTask], list[PageRecord]]:
        if self.generation.id == 1:
            return [PageTask(position, url) for position, url in batch], []
        tasks, kept = [], []
        for position, url in batch:
            previous = self.state.previous(url, self.generation.id)
            if previous is None or previous[0] == "failed":
                tasks.append(PageTask(position, url))
            elif any(previous[1]):
                tasks.append(PageTask(position, url, previous[1]))
            else:
                kept.append(PageRecord(position, url, "kept"))
        return tasks, kept

    def _robots_for(self, tasks: list[PageTask]) -> dict[str, tuple[int, str] | None]:
        """robots.txt of every host in the batch, each fetched once in the whole run."""
        if not self.options.respect_robots:
            return {}
        shipped = {}
        for task in tasks:
            robots_url = self._robots_url(task.url)
            if robots_url is None:
                continue  # not a web URL, or one the worker records as not fetchable
            if robots_url not in self._robots:
                self._robots[robots_url] = self._robots_fetcher().fetch_robots(robots_url)
            shipped[robots_url] = self._robots[robots_url]
        return shipped

    def _robots_url(self, url: str) -> str | None:
        """Where ``url``'s robots.txt is; parsed once per distinct ``scheme://host`` text, not per URL (the
        driver's work per page is what a second worker waits on)."""
        head = _scheme_and_host(url)
        if head in self._robots_urls:
            return self._robots_urls[head]
        if not is_web_url(url):
            return None
        try:
            robots_url = origin_of(url).robots_url
        except InvalidUrl:
            return None
        if head is not None:
            self._robots_urls[head] = robots_url
        return robots_url

    def _robots_fetcher(self) -> HttpFetcher:
        if self._robots_http is None:
            self._robots_http = run_fetcher(self.options, self.schedule).http
        return self._robots_http

    def close(self) -> None:
        if self._robots_http is not None:
            self._robots_http.close()


def _scheme_and_host(url: str) -> str | None:
    """``http(s)://`` and the text up to the path, query or fragment: what a URL's origin depends on (any
    two URLs alike up to there have one origin); ``None`` for a URL not spelt that way."""
    if not url.startswith(("http://", "https://")):
        return None
    start = url.index("//") + 2
    ends = [end for end in (url.find(mark, start) for mark in "/?#") if end >= 0]
    return url[:min(ends, default=len(url))]


def assemble(state: RunState, output: Path, schema: dict[str, str] | None = None) -> tuple[Path, int, int]:
    """The dataset from every committed shard, in order, a later generation's rows replacing an earlier's.

    Returns the path, the number of rows and the number of unreadable shard lines (counted, never hidden).
    """
    if state.generations_with_batches() > 1:
        state.index_pages()  # which rows a later generation replaced is asked of the pages table
    torn = 0

    def chunks() -> Iterator[list[dict[str, Any]]]:
        nonlocal torn
        torn = 0
        for generation, index, shard in state.shards_in_order():
            if not shard.is_file():
                raise RunStateError(f"{shard} is missing: the manifest says batch {index} wrote it")
            replaced = state.superseded(generation, index)
            entries, _records, unreadable = read_shard(shard)
            torn += unreadable
            yield [row for url, row in entries if url not in replaced]

    path, rows = write_row_chunks(chunks, output, schema)
    return path, rows, torn
