"""``bench insta-e2e`` on two demo sites with a scripted model for control flow: the figures are the truth's."""

from __future__ import annotations

import pytest

from scrapesmith.bench.insta_e2e import measure_e2e
from scrapesmith.llm import LedgeredLLM
from scrapesmith.sites import build_sites

from .scripted_e2e import make_llm

pytestmark = pytest.mark.browser


def test_e2e_on_two_demo_sites_scores_tasks_and_episodes_against_the_truth(tmp_path):
    model = LedgeredLLM(make_llm(login_on="/pagecraft"))
    result = measure_e2e(lambda: model, "scripted", [0], ["bookshelf", "pagecraft"], max_actions=8,
                         wall_time=90, out_dir=tmp_path)
    cases = {case["site"]: case for case in result.cases}
    assert set(cases) == {"bookshelf", "pagecraft"}
    # the model's "social network" is lifted: no page read is a sign-in form
    assert cases["pagecraft"]["filter"] == "passed" and cases["pagecraft"]["overruled"].startswith("model: login")
    truth = build_sites(7)
    for name, case in cases.items():
        books = truth.truth(name)["books"]
        # a value the truth holds for a book, on that book's page, reached from the landing page
        assert case["checkable"] and case["goal_kind"] == "value" and case["feasible"]
        book = next(b for b in books if case["goal_page"].endswith(b["url"]))
        assert case["goal_value"] in {str(value) for value in book.values()}
        assert case["true_success"] == (case["goal_value"] in case["answer"])
        assert case["stop_reason"] == "stop" and case["true_success"] and case["judged_success"]
        assert case["sft_records"] >= 3  # the agent's steps, the judge, the proposer
    summary = result.summary
    assert (summary["filter_passed"], summary["feasible_checkable"], summary["true_success"]) == (1.0, 1.0, 1.0)
    assert (summary["judge_precision"], summary["judge_recall"], summary["verified_per_site"]) == (1.0, 1.0, 1.0)
    # two framings for the bookshop; the first framing already refuses pagecraft (refusal wins), so one there
    assert summary["calls insta.propose"] == 2 and summary["calls insta.safety"] == 3
    assert summary["calls insta.choose"] >= 2 and summary["model_calls"] == model.inner.calls
