"""The Instruct2DS-style benchmark: templates, ground truth g(T, P, D), per-attribute P/R/F1, a CLI run."""

from __future__ import annotations

import json
import subprocess
import sys

from scrapesmith.bench.instruct2ds import (
    TEMPLATES,
    attribute_scores,
    make_tasks,
    normalize,
    score_task,
    site_truths,
)


def test_every_template_yields_a_non_empty_ground_truth(demo_web):
    truths = site_truths(demo_web.sites)
    tasks = make_tasks(truths, ["academic", "finance", "sports"], 2)
    assert {t.template.name for t in tasks} == {t.name for t in TEMPLATES}
    for task in tasks:
        truth = task.template.truth(truths[task.template.domain], task.values)
        assert truth and all(column in truth[0] for column in task.template.columns)
        assert "{" not in task.instruction


def test_finance_ground_truth_is_the_date_range_of_one_symbol(demo_web):
    truths = site_truths(demo_web.sites)
    task = next(t for t in make_tasks(truths, ["finance"], 1) if t.template.name == "finance-T1")
    truth = task.template.truth(truths["finance"], task.values)
    assert {r["symbol"] for r in truth} == {task.values["symbol"]}
    assert min(r["date"] for r in truth) >= task.values["start"] and max(r["date"] for r in truth) <= task.values["end"]


def test_numbers_are_rounded_to_four_decimals_and_links_compare_by_path():
    assert normalize("1,234.567891") == normalize(1234.5679) == "1234.5679"
    assert normalize("http://127.0.0.1:9/a/b.html") == normalize("/a/b.html")
    assert normalize("  Bayport   Pelicans ") == "bayport pelicans"


def test_each_attribute_is_a_unit_and_scores_are_averaged():
    truth = [{"a": "x", "b": "1"}, {"a": "y", "b": "2"}]
    collected = [{"a": "x", "b": "1.0"}, {"a": "z", "b": "2"}, {"a": "y", "b": "3"}]
    scores = attribute_scores(collected, truth, ("a", "b"))
    assert scores["a"]["precision"] == 2 / 3 and scores["a"]["recall"] == 1.0
    assert score_task(collected, truth, ("a", "b")) == {"precision": 0.6667, "recall": 1.0, "f1": 0.8}
    assert score_task([], truth, ("a", "b"))["f1"] == 0.0


def test_bench_cli_heuristic_run_scores_a_sports_task(tmp_path):
    out = tmp_path / "i2ds.json"
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "bench", "instruct2ds", "--domains", "sports",
                           "--template", "sports-T2", "--tasks", "1", "--llm", "none", "--start-urls", "--json", str(out),
                           "--out-dir", str(tmp_path / "runs")], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["summary"]["tasks"] == 1
    assert result["summary"]["sports_f1"] == 1.0
    assert all(case["tokens"] == 0 for case in result["cases"])


def test_demo_instructions_name_one_task_per_domain(demo_web):
    from scrapesmith.bench.instruct2ds import demo_instructions

    tasks = demo_instructions(site_truths(demo_web.sites))
    assert [t.template.domain for t in tasks] == ["academic", "finance", "sports"]
    assert [t.template.name for t in tasks] == ["academic-T2", "finance-T1", "sports-T2"]


def test_tasks_are_drawn_without_replacement_and_a_small_template_gives_fewer(demo_web):
    truths = site_truths(demo_web.sites)
    tasks = make_tasks(truths, ["academic", "finance", "sports"], 50)
    instructions = [t.instruction for t in tasks]
    assert len(instructions) == len(set(instructions))
    seasons = len({r["year"] for r in truths["sports"]["teams"]})
    assert len([t for t in tasks if t.template.name == "sports-T2"]) == seasons < 50
    assert len([t for t in tasks if t.template.name == "finance-T1"]) == 50
    # the values a task keeps are only those its instruction names
    assert all(set(t.values) == {"year"} for t in tasks if t.template.name in ("sports-T2", "sports-T3"))
    assert make_tasks(truths, ["sports"], 3, seed=1) == make_tasks(truths, ["sports"], 3, seed=1)


def test_failure_reasons_name_what_went_wrong(tmp_path):
    from scrapesmith.bench.instruct2ds import failure_reasons

    truth = [{"team": "A", "wins": 3, "pts": 1.5}]
    extra = [{"team": "A", "wins": 3, "pts": ""}, {"team": "B", "wins": 4, "pts": ""}]
    (tmp_path / "validation.json").write_text(json.dumps({"ok": False, "checks": [{"name": "rows", "ok": False}]}))
    reasons = failure_reasons(extra, truth, ("team", "wins", "pts"), tmp_path)
    assert reasons == ["filter not applied", "column unmapped: pts", "validation failed: rows"]
    assert failure_reasons([{"team": "Z", "wins": 3, "pts": 1.5}], truth, ("team", "wins", "pts"),
                           tmp_path / "none") == ["wrong page"]
    assert failure_reasons([], truth, ("team",), tmp_path, "boom") == ["error: boom"]
    assert failure_reasons([], truth, ("team",), tmp_path) == ["no rows"]
    assert failure_reasons([truth[0]], truth * 2, ("team",), tmp_path / "none") == ["rows missing: 1 of 2"]
