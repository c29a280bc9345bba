"""Fan-out behind one interface: a local process pool by default, Ray when asked (``--ray``/``RAY_ADDRESS``).

A :class:`Runner` maps a picklable function over jobs and yields ``(job, result)`` as each finishes, in
completion order, keeping at most ``in_flight`` jobs started at once. Jobs are drawn from their iterable
only as slots free up, so a run over a million URLs never holds more than ``in_flight`` jobs. A worker that dies (killed,
segfault, out of memory) does not end the run: the jobs then in flight run again one at a time on a fresh pool,
so the job that killed it is found; that job is retried once and, if it kills a worker again, comes back as
:class:`WorkerDied` for the caller to record as a per-site failure. A job that only shared the pool with it is
never failed for it.
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
        """When a worker dies, every job then in flight is a suspect; suspects run again one at a time, so
        the job that kills a worker is found and charged an attempt, and a job that only shared the pool with
        it is never failed for it."""
        fresh = iter(jobs)
        requeued: list[tuple[J, int]] = []  # never ran (the pool broke as they were submitted): no attempt used
        suspects: list[tuple[J, int]] = []  # in flight when a worker died: each runs alone next
        running: dict[Future, tuple[J, int]] = {}
        pool = self._pool or self._fresh_pool()
        while True:
            if suspects:
                if not running:
                    if not self._submit(pool, fn, suspects[0], running):
                        pool = self._fresh_pool()  # a worker died while idle: the suspect never ran
                        continue
                    suspects.pop(0)
            else:
                while len(running) < self.in_flight and (started := _next_job(requeued, fresh)) is not None:
                    if not self._submit(pool, fn, started, running):
                        requeued.append(started)
                        break
            if not running:
                if requeued:  # the pool broke before any of them ran
                    pool = self._fresh_pool()
                    continue
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
                in_flight = list(running.values())
                running.clear()
                pool = self._fresh_pool()
                if len(in_flight) > 1:  # which one killed the worker is unknown: no attempt is charged
                    suspects.extend(in_flight)
                    continue
                job, attempt = in_flight[0]  # it ran alone: it killed the worker
                if attempt < ATTEMPTS:
                    suspects.append((job, attempt + 1))
                else:
                    yield job, WorkerDied("worker process died on every attempt")

    @staticmethod
    def _submit(pool: ProcessPoolExecutor, fn: Callable[[J], R], started: tuple[J, int],
                running: dict[Future, tuple[J, int]]) -> bool:
        """Start one job; ``False`` when the pool broke since the last wait (the job never ran)."""
        try:
            running[pool.submit(fn, started[0])] = started
        except BrokenProcessPool:
            return False
        return True

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
