"""The trajectory viewer of an ``insta run`` on the demo web, looked at in real Chromium.

The pipeline runs for real (browser, environment, store, report); a scripted model plays proposer, agent
and judge so the episodes are known: on the company site the agent clicks "Blog" and stops (judged a
success), on the sports site a budget of one action ends the episode before its answer (judged a failure). The checks are what a person sees:
one screenshot per step, loaded from next to the report; the judge's scores; the verdict filter; and no
request leaves the machine.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scrapesmith.insta.export import ExportConfig, export_run
from scrapesmith.insta.pipeline import PipelineConfig, run_pipeline
from scrapesmith.insta.store import ResultStore
from scrapesmith.scale.runner import LocalPoolRunner

from .scripted import llm_factory

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def insta_run(demo_web, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("insta") / "run"
    config = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=4, site_wall_time=60,
                            seed=1, screenshots_dir=str(out / "screenshots"))
    runner = LocalPoolRunner(workers=1)
    try:
        run_pipeline([demo_web.url("/acme/")], ResultStore(out), runner, config, llm_factory=llm_factory())
        # one action is not enough for the sports task: the episode uses its budget and is judged a failure
        run_pipeline([demo_web.url("/sports/")], ResultStore(out), runner, replace(config, max_actions=1),
                     llm_factory=llm_factory())
    finally:
        runner.close()
    return out


def test_viewer_shows_one_screenshot_per_step_and_the_judges_scores(insta_run, open_report, screenshot_dir):
    results = ResultStore(insta_run).latest()
    report = insta_run / "report.html"
    page, requests = open_report(report)
    screenshot_dir.mkdir(exist_ok=True)
    page.screenshot(path=str(screenshot_dir / "trajectory-viewer.png"), full_page=True)

    assert page.locator("#episodes .episode").count() == len(results)
    for site, result in results.items():
        episode = page.locator(f'#episodes .episode[data-site="{site}"]')
        steps = result.trajectory.steps
        assert episode.locator(".step").count() == len(steps) >= 1
        images = episode.locator(".step img")
        assert images.count() == len(steps)
        for index, step in enumerate(steps):
            assert images.nth(index).get_attribute("src") == step.screenshot
            assert (insta_run / step.screenshot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            assert images.nth(index).evaluate("image => image.complete && image.naturalWidth > 0")
        assert float(episode.locator('[data-score="success"]').inner_text()) == result.judgement.success
    assert all(url.startswith("file://") for url in requests), requests
    assert requests[0] == report.resolve().as_uri()


def test_viewer_filters_episodes_by_the_judges_verdict(insta_run, open_report):
    results = ResultStore(insta_run).latest().values()
    failures = sum(1 for result in results if result.judgement and not result.judgement.succeeded)
    successes = sum(1 for result in results if result.judgement and result.judgement.succeeded)
    assert failures and successes
    page, _ = open_report(insta_run / "report.html")
    page.locator('label[for="show-failure"]').click()
    assert page.locator("#episodes .episode:visible").count() == failures
    page.locator('label[for="show-success"]').click()
    assert page.locator("#episodes .episode:visible").count() == successes
    page.locator('label[for="show-all"]').click()
    assert page.locator("#episodes .episode:visible").count() == successes + failures


def test_sft_export_references_each_steps_screenshot(insta_run, tmp_path):
    output = tmp_path / "sft.jsonl"
    export_run(insta_run, output, ExportConfig(kinds=("agent",), scrub_pii=False))
    records = [json.loads(line) for line in output.read_text().splitlines()]
    assert records and all((insta_run / record["screenshot"]).is_file() for record in records)
