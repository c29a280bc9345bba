"""The pipeline on the demo web: propose -> run -> judge -> refine, per-site failures, crash and resume."""

from __future__ import annotations

import pytest

from scrapesmith.insta.pipeline import PipelineConfig, read_sites, run_pipeline
from scrapesmith.insta.store import ResultStore
from scrapesmith.io import read_rows
from scrapesmith.scale.runner import LocalPoolRunner

from .scripted import llm_factory

pytestmark = pytest.mark.browser

CONFIG = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=4, site_wall_time=60, seed=1,
                        policy="paper", judge_kind="paper")


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
    assert (first.ok, first.unsafe, first.failed) == (1, 0, 2)
    assert results[acme].error == "worker process died on every attempt"
    assert "RobotsDisallowed" in results[private].error
    # the model's "extremist forum" is its word alone: the pages read show none of it, so the filter lets the
    # site through (the refusal is recorded as overruled) and the proposer gives it a task from its pages
    assert results[unsafe].proposal.goal is not None and results[unsafe].trajectory is not None
    assert results[unsafe].proposal.goal.page.startswith(demo_web.url("/stocks/"))
    assert not results[unsafe].safety.unsafe and results[unsafe].safety.overruled.startswith("model: harmful")
    assert first.refused == {}

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
    assert rows[acme]["status"] == "ok" and rows[acme]["success"] == 1.0 and rows[unsafe]["status"] == "ok"
    assert (rows[unsafe]["safety_verdict"], rows[unsafe]["safety_category"]) == ("safe", "safe")
    assert "rests on the model's word alone" in rows[unsafe]["safety_reason"]
    assert (rows[acme]["safety_verdict"], rows[acme]["safety_decided_by"]) == ("safe", "model")


def test_candidate_policy_and_evidence_judge_in_the_pipeline(demo_web, tmp_path):
    acme = demo_web.url("/acme/")
    config = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=4, site_wall_time=60,
                            seed=1)
    assert (config.policy, config.judge_kind) == ("candidates", "evidence")
    runner = LocalPoolRunner(workers=1)
    try:
        summary = run_pipeline([acme], ResultStore(tmp_path / "run"), runner, config, llm_factory=llm_factory())
    finally:
        runner.close()
    done = ResultStore(tmp_path / "run").latest()[acme]
    assert summary.ok == 1 and done.trajectory.policy == "candidates"
    assert '"Blog" link' in done.trajectory.steps[0].candidate and done.trajectory.steps[0].reason
    # the model is asked only to choose among the page's equal "Blog" links; the stop is the program's (the task
    # asks no question)
    asked = [step for step in done.trajectory.steps if step.asked]
    assert all('"Blog" link' in line for step in asked for line in step.candidates)
    assert done.trajectory.steps[-1].action.is_stop and done.trajectory.steps[-1].asked is False
    assert done.trajectory.stop_reason == "stop" and done.judgement.kind == "evidence"
    assert done.judgement.success == 1.0 and done.judgement.criteria[0].verified


def test_pipeline_runs_with_no_model(demo_web, tmp_path):
    """``--llm none``: a page of the site to reach (no model reads an answer), the links to it followed by the
    best grounded candidates, the goal judge's check of the page; no refinement."""
    sites = [demo_web.url("/acme/careers/"), demo_web.url("/bookshelf/catalog/")]
    config = PipelineConfig(llm_spec="none", allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=4,
                            site_wall_time=60, seed=3)
    runner = LocalPoolRunner(workers=1)
    try:
        summary = run_pipeline(sites, ResultStore(tmp_path / "run"), runner, config)
    finally:
        runner.close()
    assert summary.ok == 2, summary.errors
    for result in ResultStore(tmp_path / "run").latest().values():
        task, trajectory = result.proposal.task, result.trajectory
        goal = result.proposal.goal
        assert task.startswith('Open "') and result.refined is None and result.llm_calls == 0
        route = ", then ".join(f'open "{text}"' for text in goal.route)
        assert not goal.label and goal.route and task == f"O{route[1:]}."
        assert trajectory.steps[0].action.action_key == "click" and f'"{goal.route[0]}"' in trajectory.steps[0].candidate
        assert trajectory.stop_reason == "stop" and result.judgement.kind == "evidence"
        assert result.judgement.success == 1.0 and trajectory.final_url == goal.page
