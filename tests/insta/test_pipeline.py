"""The pipeline on the demo web: propose -> run -> judge -> refine, per-site failures, crash and resume."""

from __future__ import annotations

import pytest

from scrapesmith.insta.pipeline import PipelineConfig, read_sites, run_pipeline
from scrapesmith.insta.runner import LocalPoolRunner
from scrapesmith.insta.store import ResultStore
from scrapesmith.io import read_rows

from .scripted import llm_factory

pytestmark = pytest.mark.browser

CONFIG = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=4, site_wall_time=60, seed=1)


def test_read_sites_normalises_dedupes_and_skips_comments():
    lines = ["# demo", "example.org", "https://example.org", "http://127.0.0.1:8000/acme/  # local", ""]
    assert read_sites(lines) == ["https://example.org", "http://127.0.0.1:8000/acme/"]


def test_pipeline_records_every_site_and_resumes_after_a_killed_worker(demo_web, tmp_path):
    acme, unsafe, private = demo_web.url("/acme/"), demo_web.url("/stocks/"), demo_web.url("/private/")
    sites = [acme, unsafe, private]
    store = ResultStore(tmp_path / "run")
    runner = LocalPoolRunner(workers=1)
    try:
        first = run_pipeline(sites, store, runner, CONFIG, llm_factory=llm_factory(kill_on="/acme"))
    finally:
        runner.close()
    results = store.latest()
    assert (first.ok, first.unsafe, first.failed) == (0, 1, 2)
    assert results[acme].error == "worker process died on every attempt"
    assert "RobotsDisallowed" in results[private].error
    assert results[unsafe].proposal is None and results[unsafe].trajectory is None
    assert results[unsafe].safety.unsafe and results[unsafe].safety.decided_by == "model"
    assert first.refused == {"harmful": 1}

    with store.shards()[-1].open("a") as shard:  # a crash mid-write leaves a torn last line
        shard.write('{"site": "http://127.0.0.1/torn", "status": "o')
    runner = LocalPoolRunner(workers=1)
    try:
        second = run_pipeline(sites, ResultStore(tmp_path / "run"), runner, CONFIG, llm_factory=llm_factory(),
                              retry_failed=True)
    finally:
        runner.close()
    assert second.skipped == 1 and (second.ok, second.failed, second.unsafe) == (1, 1, 0)
    store = ResultStore(tmp_path / "run")
    done = store.latest()[acme]
    assert done.status == "ok" and done.trajectory.steps[0].action.action_key == "click"
    assert "/blog" in done.trajectory.final_url and done.trajectory.stop_reason == "stop"
    assert done.judgement.success == 1.0 and done.refined.steps == ["Open the blog"]
    recorded = [result.site for result in store.results()]
    assert recorded.count(unsafe) == 1 and recorded.count(acme) == 2
    rows = {row["site"]: row for row in read_rows(tmp_path / "run" / "results.parquet")}
    assert rows[acme]["status"] == "ok" and rows[acme]["success"] == 1.0 and rows[unsafe]["status"] == "unsafe"
    assert (rows[unsafe]["safety_verdict"], rows[unsafe]["safety_category"]) == ("unsafe", "harmful")
    assert rows[unsafe]["safety_reason"] == "model: the site is under '/stocks'"
    assert (rows[acme]["safety_verdict"], rows[acme]["safety_decided_by"]) == ("safe", "model")
