"""``bench insta-e2e`` with the embedded model on one demo site: the whole path against the real model.

A smoke test (the answers bound by the schemas, every stage reached); the figures live in BENCHMARKS.md,
measured by ``scrapesmith bench insta-e2e --llm local``. The lead runs it (``pytest -m model
tests/insta/test_e2e_model_smoke.py``); never on a shared busy machine.
"""

from __future__ import annotations

import pytest

from scrapesmith.bench.insta_e2e import measure_e2e
from scrapesmith.config import Settings
from scrapesmith.llm import resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.browser, pytest.mark.timeout(1800)]


def test_embedded_model_runs_the_pipeline_on_a_demo_site_and_the_judge_agrees_with_the_truth(tmp_path) -> None:
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    llm = resolve_llm("local", cache=False)
    result = measure_e2e(lambda: llm, "local", [0], ["bookshelf"], max_actions=8, wall_time=300, out_dir=tmp_path)
    [case] = result.cases
    assert case["filter"] == "passed" and case["checkable"] and case["feasible"]  # a harmless site, a real goal
    assert case["steps"] and case["stop_reason"] in ("stop", "max_actions", "wall_time", "repeated", "unchanged")
    assert case["judged_success"] == case["true_success"]  # the program's judge and the truth agree
    assert result.summary["calls insta.safety"] >= 1 and result.summary["calls insta.propose"] == 1
