"""Shards carry what became of each URL, so the driver handles a count per batch; what a killed worker
leaves behind (a torn temporary shard, a whole shard never committed) is never read."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from scrapesmith.induce.pages import SpecPages
from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.scale import FetchOptions, InlineRunner, RunPlan, assemble, run_pages
from scrapesmith.scale.shards import read_shard
from scrapesmith.scale.views import BatchJob, PageTask
from scrapesmith.scale.worker import process_batch
from scrapesmith.sites.synthetic import ITEM_FIELDS

from .conftest import assert_every_item_once

SPEC = SpecPages(ScraperSpec(fields=[FieldSpec(name=name, actions=[xpath]) for name, xpath in ITEM_FIELDS.items()]))
OPTIONS = FetchOptions(allow_hosts=("127.0.0.1",), delay=0)


class _StopAfter:
    """Ctrl-C in the driver once ``batches`` batches are committed (a run stopped midway)."""

    def __init__(self, batches: int) -> None:
        self.batches = batches

    def __call__(self, summary) -> None:
        if summary.batches >= self.batches:
            raise KeyboardInterrupt


def test_a_torn_shard_a_killed_worker_left_is_never_read_and_the_resume_loses_nothing(tmp_path, shop):
    urls = [shop.url(n) for n in range(60)]
    plan = RunPlan(tmp_path / "items.run", batch_size=10)
    with pytest.raises(KeyboardInterrupt):
        run_pages(urls, SPEC, plan, InlineRunner(), OPTIONS, on_batch=_StopAfter(3))
    shards = tmp_path / "items.run" / "shards"
    whole = (shards / "g0001-b0000000.jsonl").read_bytes()
    # A worker killed while writing batch 3 leaves its temporary file cut inside a line ...
    torn = shards / f".g0001-b0000003.jsonl.{os.getpid() + 1}.partial"
    torn.write_bytes(whole[: len(whole) // 2])
    # ... and one killed after its rename, before the driver committed batch 4, a whole shard nobody counted
    # (here with rows of other items: were it read, they would show up twice).
    (shards / "g0001-b0000004.jsonl").write_bytes(whole)

    summary, state, generation = run_pages(urls, SPEC, RunPlan(tmp_path / "items.run", batch_size=10,
                                                               resume=True), InlineRunner(), OPTIONS)
    _path, rows, unreadable = assemble(state, tmp_path / "items.csv")
    assert (summary.batches_resumed, summary.batches, summary.ok) == (3, 3, 30)
    assert not torn.exists() and unreadable == 0 and rows == 60
    assert state.counts(generation) == {"ok": 60}
    state.close()
    assert_every_item_once(tmp_path / "items.csv", range(60))


def test_the_driver_gets_counts_per_batch_and_the_manifest_reads_each_url_from_the_shards(tmp_path, shop):
    urls = [shop.url(n) for n in range(50)] + ["http://127.0.0.1:1/nothing-listens-here"]
    summaries = []
    summary, state, generation = run_pages(urls, SPEC, RunPlan(tmp_path / "r.run", batch_size=25), InlineRunner(),
                                           OPTIONS, on_batch=lambda done: summaries.append(done.pages))
    assert summaries == [25, 50, 51] and (summary.ok, summary.failed) == (50, 1)
    assert summary.errors[0][0] == urls[-1]
    # Each URL's record is in its batch's shard; the pages table is filled from there only when asked.
    _entries, records, torn = read_shard(state.shard_path(generation, 0))
    assert [record.url for record in records] == urls[:25] and torn == 0
    assert state.failures(generation, 10) == [(urls[-1], summary.errors[0][1])]
    state.close()


def test_what_a_worker_sends_back_does_not_grow_with_its_batch(tmp_path, shop):
    sizes = []
    for count in (5, 200):
        tasks = tuple(PageTask(n, shop.url(n)) for n in range(count))
        job = BatchJob("token", 1, 0, "digest", tasks, str(tmp_path / f"shard-{count}.jsonl"), SPEC, OPTIONS)
        outcome = process_batch(job)
        assert (outcome.rows, outcome.counts) == (count, {"ok": count})
        sizes.append(len(pickle.dumps(outcome)))
    assert abs(sizes[1] - sizes[0]) <= 8  # the counts' digits, no more
    assert len(read_shard(Path(tmp_path / "shard-200.jsonl"))[1]) == 200
