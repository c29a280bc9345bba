"""One per-host limit for a whole run, however many workers fetch.

Each worker's :class:`~scrapesmith.web.safety.HostThrottle` keeps its own requests to a host apart; with
two workers a host would see twice the rate. :class:`HostSchedule` is the run's single clock per origin:
before each request a worker reserves the next free start on it and waits until then, so requests to one
host start at least ``delay`` seconds apart across every worker. The schedule lives in one place that
every worker can call: a Ray actor on Ray, a manager process for the local pool, the object itself in
one process. With no delay (politeness off) nothing is shared and no call is made.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.managers import BaseManager
from typing import Any, Protocol

from scrapesmith.scale.runner import Runner, end_with_parent
from scrapesmith.web import HostThrottle, origin_of


class Schedule(Protocol):
    def reserve(self, origin: str, gap: float) -> float: ...


class HostSchedule:
    """The next moment a request to each origin may start; :meth:`reserve` books it and says how long to
    wait. Thread-safe (a manager serves each client from its own thread)."""

    def __init__(self) -> None:
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def reserve(self, origin: str, gap: float) -> float:
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next.get(origin, 0.0))
            self._next[origin] = start + gap
            return start - now


class RaySchedule:
    """A client of the schedule held by a Ray actor (picklable: the actor handle travels with each job)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    def reserve(self, origin: str, gap: float) -> float:
        import ray

        return float(ray.get(self.actor.reserve.remote(origin, gap)))


class _ScheduleManager(BaseManager):
    """Serves one :class:`HostSchedule` to the pool's processes."""


_ScheduleManager.register("HostSchedule", HostSchedule)


class SharedThrottle(HostThrottle):
    """A worker's own throttle that also books every request on the run's :class:`HostSchedule`."""

    def __init__(self, delay: float, max_per_host: int, schedule: Schedule) -> None:
        super().__init__(delay, max_per_host)
        self.schedule = schedule

    @contextmanager
    def slot(self, url: str, delay: float | None = None) -> Iterator[None]:
        gap = self.delay if delay is None else max(0.0, delay)
        with super().slot(url, delay):
            if gap > 0:
                wait = self.schedule.reserve(str(origin_of(url)), gap)
                if wait > 0:
                    time.sleep(wait)
            yield


@contextmanager
def shared_schedule(runner: Runner, delay: float) -> Iterator[Schedule | None]:
    """The run's schedule where ``runner``'s workers can reach it; ``None`` when there is no delay."""
    if delay <= 0:
        yield None
        return
    if runner.name == "ray":
        import ray

        actor = ray.remote(num_cpus=0)(HostSchedule).remote()
        try:
            yield RaySchedule(actor)
        finally:
            ray.kill(actor)
        return
    if runner.name == "inline":
        yield HostSchedule()
        return
    manager = _ScheduleManager(ctx=multiprocessing.get_context("spawn"))
    manager.start(end_with_parent, (os.getpid(),))
    try:
        yield manager.HostSchedule()  # type: ignore[attr-defined]
    finally:
        manager.shutdown()
