"""The insta commands: export writes scrubbed SFT JSONL; user mistakes are one clear error."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from scrapesmith.cli import app
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.store import ResultStore

from .test_export import EMAIL, _result

pytest.importorskip("scrubadub")


def test_insta_export_command_writes_scrubbed_records(tmp_path):
    store = ResultStore(tmp_path / "run")
    store.append(_result("good.test", 1.0))
    out = tmp_path / "sft.jsonl"
    result = CliRunner().invoke(app, ["insta", "export", str(tmp_path / "run"), "-o", str(out),
                                      "--min-success", "0.5", "--kinds", "agent,judge"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["kind"] for r in records] == ["agent", "agent", "judge"]
    assert EMAIL not in out.read_text()


def test_insta_run_with_missing_sites_file_is_a_user_error(tmp_path):
    result = CliRunner().invoke(app, ["insta", "run", "--sites", str(tmp_path / "nope.txt"),
                                      "--out", str(tmp_path / "o"), "--llm", "none"])
    assert isinstance(result.exception, ScrapesmithError) and "sites file not found" in str(result.exception)


def test_insta_export_rejects_unknown_kind(tmp_path):
    ResultStore(tmp_path / "run").append(_result("good.test", 1.0))
    result = CliRunner().invoke(app, ["insta", "export", str(tmp_path / "run"), "-o", str(tmp_path / "o.jsonl"),
                                      "--kinds", "agent,critic"])
    assert isinstance(result.exception, ScrapesmithError) and "critic" in str(result.exception)


def test_bench_insta_safety_without_a_model_reports_each_group(tmp_path):
    out = tmp_path / "safety.json"
    result = CliRunner().invoke(app, ["bench", "insta-safety", "--llm", "none", "--group", "hard-benign",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text())["summary"]
    assert summary["domains"] == summary["hard-benign domains"] >= 30 and summary["llm_calls"] == 0
    assert "issue-100 accuracy" not in summary


def test_bench_insta_safety_rejects_an_unknown_group():
    result = CliRunner().invoke(app, ["bench", "insta-safety", "--llm", "none", "--group", "nope"])
    assert result.exit_code == 2 and "no such group nope" in result.output


def test_bench_insta_safety_rejects_an_unknown_question():
    result = CliRunner().invoke(app, ["bench", "insta-safety", "--llm", "none", "--ask", "vote"])
    assert result.exit_code == 2 and "describe or judge" in result.output
