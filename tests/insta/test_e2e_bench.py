"""``bench insta-e2e`` on two demo sites with a scripted model for control flow: the figures are the truth's."""

from __future__ import annotations

import json

import pytest

from scrapesmith.bench.insta_e2e import measure_e2e
from scrapesmith.insta import ResultStore
from scrapesmith.io import read_rows
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
    # the one value each book page shows beside the asked label is the answer: read by the program, no model call
    assert summary.get("calls insta.choose", 0) == 0 and summary["model_calls"] == model.inner.calls


def test_several_tasks_per_site_each_distinct_run_judged_and_exported(tmp_path):
    model = LedgeredLLM(make_llm())
    result = measure_e2e(lambda: model, "scripted", [0], ["bookshelf", "pagecraft"], max_actions=8,
                         wall_time=90, tasks_per_site=3, out_dir=tmp_path)
    store = ResultStore(tmp_path / "seed-0")
    for site, stored in store.latest().items():
        tasks = stored.per_task()
        goals = [(task.proposal.goal.entity, task.proposal.goal.label, task.proposal.goal.page) for task in tasks]
        assert len(tasks) == 3 and len(set(goals)) == 3, site  # three tasks, three different goals
        # the model named its first task twice: the repeat is rejected and the program's next goal takes its place
        assert any(why.startswith("duplicate: t1") for why in stored.proposal.rejected)
        assert all(task.trajectory is not None and task.judgement is not None for task in tasks)
    cases = result.cases
    assert sorted((case["site"], case["task_no"]) for case in cases) == [
        (site, number) for site in ("bookshelf", "pagecraft") for number in (1, 2, 3)]
    summary = result.summary
    assert summary["sites"] == 2 and summary["tasks"] == 6 and summary["episodes"] == 6
    verified = sum(case["judged_success"] for case in cases)
    assert summary["verified_per_site"] == round(verified / 2, 3) and verified >= 4
    assert summary["judge_precision"] == 1.0 and summary["calls insta.propose"] == 2  # one proposer call a site
    # results.parquet stays one row per site, with how many tasks it ran and how many the judge verified
    rows = {row["site"]: row for row in read_rows(tmp_path / "seed-0" / "results.parquet")}
    for site, stored in store.latest().items():
        judged = sum(task.judgement.succeeded for task in stored.per_task())
        assert (rows[site]["tasks"], rows[site]["verified_tasks"]) == (3, judged)
    # every verified episode is exported: agent records for each judged success's steps
    sft = [json.loads(line) for line in (tmp_path / "seed-0" / "sft.jsonl").read_text().splitlines()]
    steps = sum(len(task.trajectory.steps) for stored in store.latest().values() for task in stored.per_task()
                if task.judgement.succeeded)
    assert sum(record["kind"] == "agent" for record in sft) == steps


def test_the_step_budget_ends_every_task_of_a_site(tmp_path):
    model = LedgeredLLM(make_llm())
    result = measure_e2e(lambda: model, "scripted", [0], ["bookshelf"], max_actions=1, wall_time=90,
                         tasks_per_site=2, out_dir=tmp_path)
    assert [case["task_no"] for case in result.cases] == [1, 2]
    for case in result.cases:  # one action each, never the agent's own stop: used its budget, not a success
        assert case["steps"] == 1 and case["stop_reason"] == "max_actions" and not case["judged_success"]
    assert result.summary["budget_or_early_stops"] == 2 and result.summary["verified_per_site"] == 0.0
