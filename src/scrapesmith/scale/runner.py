"""Fan-out behind one interface: a local process pool by default, Ray when asked (``--ray``/``RAY_ADDRESS``).

A :class:`Runner` maps a picklable function over jobs and yields ``(job, result)`` as each finishes, in
completion order, keeping at most ``in_flight`` jobs started at once. Jobs are drawn from their iterable
only as slots free up, so a run over a million URLs never holds more than ``in_flight`` jobs. A worker that dies (killed,
segfault, out of memory) does not end the run: its jobs are retried once on a fresh worker and, if they
kill that one too, come back as :class:`WorkerDied` for the caller to record as a per-site failure.
Workers end with their parent: killed with ``kill -9``, a run leaves no worker (nor, with them, the
resource tracker they hold open) behind.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from scrapesmith.errors import ScrapesmithError

J = TypeVar("J")
R = TypeVar("R")
ATTEMPTS = 2
PARENT_POLL_SECONDS = 0.5


def end_with_parent(parent: int, preload: tuple[str, ...] = ()) -> None:
    """Pool initializer: a daemon thread ends this worker once ``parent`` is gone (it is then reparented);
    the ``preload`` modules are imported now, while the worker has nothing else to do.

    A polling thread rather than ``PR_SET_PDEATHSIG``: that signal fires when the *thread* that spawned the
    worker ends, and pools spawn workers from whichever thread submits.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
    for module in preload:
        importlib.import_module(module)


_END: Any = object()


def _next_job(retries: list[tuple[J, int]], fresh: Iterator[J]) -> tuple[J, int] | None:
    """A job to start: a retry first, else the next fresh one (first attempt); ``None`` when none is left."""
    if retries:
        return retries.pop()
    job = next(fresh, _END)
    return None if job is _END else (job, 1)


@dataclass(frozen=True)
class WorkerDied:
    """The job's worker process ended abnormally on every attempt."""

    detail: str


class Runner(Protocol):
    name: str
    workers: int

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R | WorkerDied]]: ...

    def close(self) -> None: ...


class InlineRunner:
    """One worker, this process: the same interface with no process to start (a small run's default)."""

    name = "inline"
    workers = 1

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R | WorkerDied]]:
        for job in jobs:
            yield job, fn(job)

    def close(self) -> None:
        return None


class LocalPoolRunner:
    """A ``spawn`` process pool: each worker owns its browser and model, nothing is shared by fork."""

    name = "local"

    def __init__(self, workers: int = 1, in_flight: int | None = None, preload: tuple[str, ...] = ()) -> None:
        self.workers = max(1, workers)
        self.in_flight = in_flight or self.workers
        self.preload = preload
        self._context = multiprocessing.get_context("spawn")
        self._pool: ProcessPoolExecutor | None = None

    def _fresh_pool(self) -> ProcessPoolExecutor:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                         initializer=end_with_parent, initargs=(os.getpid(), self.preload))
        return self._pool

    def start(self) -> LocalPoolRunner:
        """Start every worker now (each importing ``preload``) rather than at the first job: their start-up
        overlaps what the caller does before the jobs come, as a Ray runner's does at ``ray.init``."""
        pool = self._pool or self._fresh_pool()
        for _ in range(self.workers):  # a pool spawns one more worker per job submitted while none is idle
            pool.submit(os.getpid)
        return self

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R | WorkerDied]]:
        fresh = iter(jobs)
        retries: list[tuple[J, int]] = []
        running: dict[Future, tuple[J, int]] = {}
        pool = self._pool or self._fresh_pool()
        while True:
            broken_before_submit = False
            while len(running) < self.in_flight and (started := _next_job(retries, fresh)) is not None:
                try:
                    running[pool.submit(fn, started[0])] = started
                except BrokenProcessPool:  # a worker died since the last wait: this job never ran
                    job, attempt = started
                    if attempt < ATTEMPTS:
                        retries.append((job, attempt + 1))
                    else:
                        yield job, WorkerDied("worker process died on every attempt")
                    broken_before_submit = True
                    break
            if broken_before_submit and not running:
                pool = self._fresh_pool()
                continue
            if not running:
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                job, attempt = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    running[future] = (job, attempt)
                    continue
                yield job, result
            if broken:
                # Which job killed the pool is unknown: every job in flight gets one more attempt.
                for job, attempt in running.values():
                    if attempt < ATTEMPTS:
                        retries.append((job, attempt + 1))
                    else:
                        yield job, WorkerDied("worker process died on every attempt")
                running.clear()
                pool = self._fresh_pool()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayUnavailable(ScrapesmithError):
    """``--ray`` needs the ``scale`` extra."""


class RayRunner:
    """Ray tasks, one CPU each; connects to ``address`` (or ``RAY_ADDRESS``) or starts a local instance."""

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None, in_flight: int | None = None,
                 init_options: dict[str, Any] | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RayUnavailable("running on Ray needs Ray: pip install 'scrapesmith[scale]'") from None
        self._ray = ray
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never report usage to the internet
        if not ray.is_initialized():
            options = {"include_dashboard": False, "log_to_driver": False, **(init_options or {})}
            address = address or os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=num_cpus, **options)
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self.in_flight = in_flight or 2 * self.workers

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R | WorkerDied]]:
        ray = self._ray
        remote = ray.remote(num_cpus=1, max_retries=ATTEMPTS - 1)(fn)
        fresh = iter(jobs)
        running: dict[Any, J] = {}
        while True:
            while len(running) < self.in_flight and (job := next(fresh, _END)) is not _END:
                running[remote.remote(job)] = job
            if not running:
                return
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                job = running.pop(ref)
                try:
                    yield job, ray.get(ref)
                except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
                    yield job, WorkerDied(f"ray worker died ({exc.__class__.__name__})")

    def close(self) -> None:
        self._ray.shutdown()


def make_runner(workers: int = 1, use_ray: bool = False, ray_address: str | None = None) -> Runner:
    """The local pool, or Ray when ``use_ray`` or ``RAY_ADDRESS`` asks for it."""
    if use_ray or ray_address or os.environ.get("RAY_ADDRESS"):
        return RayRunner(address=ray_address, num_cpus=workers if not (ray_address or os.environ.get("RAY_ADDRESS"))
                         else None)
    return LocalPoolRunner(workers)
