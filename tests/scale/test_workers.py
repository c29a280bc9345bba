"""Two workers: one per-host limit for the whole run, robots.txt once, a dead worker's pages recorded."""

from __future__ import annotations

import functools
import itertools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapesmith.io import read_rows
from scrapesmith.scale import FetchOptions, LocalPoolRunner, RunPlan, WorkerDied, assemble, run_pages

from .conftest import assert_every_item_once, item_number, scrapesmith, write_inputs

DELAY = 0.1


def test_two_workers_keep_one_per_host_limit_and_read_robots_txt_once(tmp_path, shop):
    write_inputs(tmp_path, shop, range(24))
    done = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.csv", "--allow-host", "127.0.0.1",
                       "--workers", "2", "--batch-size", "3", "--delay", str(DELAY), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_every_item_once(tmp_path / "items.csv", range(24))
    starts = [when for when, _target in shop.site.log]
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert len(starts) == 25 and shop.site.robots == 1
    # the server stamps a request when it reads it, so one late arrival shortens the next gap on a loaded
    # machine; two workers each keeping their own limit would halve the whole span, which no jitter does
    span = starts[-1] - starts[1]
    assert span >= 0.9 * DELAY * (len(starts) - 2), f"24 pages in {span:.2f} s with --delay {DELAY}"
    assert min(gaps) >= 0.5 * DELAY, f"requests {min(gaps):.3f} s apart with --delay {DELAY}"
    workers = {row["worker"] for row in _batches(tmp_path / "items.run")}
    assert len(workers) == 2 and all(not worker.endswith(f":{os.getpid()}") for worker in workers)


def _batches(run_dir) -> list[dict[str, Any]]:
    import sqlite3

    with sqlite3.connect(run_dir / "manifest.sqlite") as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM batches")]


@dataclass
class DiesOnItemSeven:
    """A program whose worker process dies on item 7 (as one killed by the kernel would)."""

    program_id: str = "dies-on-seven"
    columns: tuple[str, ...] = ("name",)
    schema: None = None

    def rows(self, page, fetcher) -> list[dict[str, Any]]:
        if page.url.endswith("/item/7"):
            os._exit(9)
        return [{"name": page.url, "source_url": page.url, "fetched_at": None, "program_id": self.program_id,
                 "error": None}]


def test_a_batch_whose_worker_dies_every_time_is_recorded_as_failed_not_lost(tmp_path, shop):
    sources = [shop.url(n) for n in range(20)]
    runner = LocalPoolRunner(2)
    try:
        summary, state, _ = run_pages(sources, DiesOnItemSeven(), RunPlan(tmp_path / "run", batch_size=5), runner,
                                      FetchOptions(allow_hosts=("127.0.0.1",), delay=0.0))
    finally:
        runner.close()
    path, rows, torn = assemble(state, tmp_path / "rows.csv")
    state.close()
    assert (summary.ok, summary.failed, rows, torn) == (15, 5, 20, 0)
    failed = {item_number(row["source_url"]) for row in read_rows(path) if row["error"]}
    assert failed == {5, 6, 7, 8, 9}
    assert all("worker process died" in row["error"] for row in read_rows(path) if row["error"])


def dies_on_three_while_four_runs(marks: Path, job: int) -> int:
    """Job 3 kills its worker only once job 4 is running on the other worker and has not finished; job 4 keeps
    running on its first attempt (until the broken pool ends it) and logs every start in ``marks``."""
    if job == 3:
        _wait_for(marks / "4.running")
        os._exit(9)
    if job == 4:
        with (marks / "4.starts").open("a") as starts:
            starts.write("start\n")
        if not (marks / "4.running").exists():
            (marks / "4.running").touch()
            _wait_for(marks / "never")  # in flight beside the dying job
            (marks / "4.first-attempt-finished").touch()
    return job * 10


def _wait_for(path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_job_in_flight_beside_a_dying_one_is_run_again_not_failed(tmp_path):
    runner = LocalPoolRunner(2)
    try:
        results = dict(runner.map_unordered(functools.partial(dies_on_three_while_four_runs, tmp_path), range(6)))
    finally:
        runner.close()
    assert {job: value for job, value in results.items() if not isinstance(value, WorkerDied)} == \
        {0: 0, 1: 10, 2: 20, 4: 40, 5: 50}
    assert isinstance(results[3], WorkerDied)
    # the race happened: job 4 was running when job 3 died, never finished there, and ran again
    assert (tmp_path / "4.starts").read_text() == "start\nstart\n"
    assert not (tmp_path / "4.first-attempt-finished").exists()
