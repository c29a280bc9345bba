"""The Ray backend behind the same Runner interface, on a local Ray instance with 2 CPUs (kept lean)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scrapesmith.insta.pipeline import PipelineConfig, run_pipeline
from scrapesmith.insta.store import ResultStore

from .scripted import llm_factory

pytest.importorskip("ray")
pytestmark = pytest.mark.browser


def test_ray_runner_processes_sites_on_local_ray(demo_web, tmp_path):
    from scrapesmith.scale.runner import RayRunner

    tests_dir = str(Path(__file__).resolve().parents[1])
    runtime_env = {"env_vars": {"PYTHONPATH": os.pathsep.join([tests_dir, os.environ.get("PYTHONPATH", "")])}}
    runner = RayRunner(num_cpus=2, init_options={"runtime_env": runtime_env, "num_gpus": 0})
    config = PipelineConfig(allow_hosts=("127.0.0.1",), politeness_delay=0.0, max_actions=3, refine=False, seed=1)
    try:
        assert runner.workers == 2
        summary = run_pipeline([demo_web.url("/acme/"), demo_web.url("/stocks/")], ResultStore(tmp_path),
                               runner, config, llm_factory=llm_factory())
    finally:
        runner.close()
    results = ResultStore(tmp_path).latest()
    # the scripted model calls the stocks site an extremist forum; its pages show none of it, so it is let through
    assert (summary.ok, summary.unsafe, summary.runner) == (2, 0, "ray")
    assert results[demo_web.url("/stocks/")].safety.overruled.startswith("model: harmful")
    assert results[demo_web.url("/acme/")].judgement.success == 1.0
    assert all(not result.worker.endswith(f":{os.getpid()}") for result in results.values())
