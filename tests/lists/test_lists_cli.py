"""``scrapesmith lists`` / ``replay`` / ``bench nexteval`` / ``bench weblists`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scrapesmith.cli import app
from scrapesmith.io import read_rows
from scrapesmith.lists.record import RecordingError

SCRAPESMITH = Path(sys.executable).with_name("scrapesmith")
NEXT_EVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        "SCRAPESMITH_LLM": "none",
        "SCRAPESMITH_POLITENESS_DELAY": "0",
        "PATH": "/usr/bin:/bin",
        "HOME": str(cwd or Path.cwd()),
    }
    return subprocess.run(
        [str(SCRAPESMITH), *args], capture_output=True, text=True, timeout=120, check=False, env=env, cwd=cwd
    )


def test_lists_records_then_replay_reruns_the_program(demo_web, tmp_path: Path) -> None:
    host = f"{demo_web.host}:{demo_web.port}"
    out, program = tmp_path / "jobs.csv", tmp_path / "jobs.json"
    recorded = invoke(
        "lists",
        demo_web.url("/acme/careers/"),
        "--goal",
        "all open jobs",
        "--columns",
        "Job Title,Job URL",
        "--llm",
        "none",
        "-o",
        str(out),
        "--program",
        str(program),
        "--allow-host",
        host,
        "--delay",
        "0",
    )
    assert recorded.exit_code == 0, recorded.output
    rows = read_rows(out)
    assert len(rows) == len(demo_web.sites.truth("acme")["jobs"])
    assert list(rows[0])[:2] == ["Job Title", "Job URL"] and rows[0]["program_id"]

    again = tmp_path / "again.jsonl"
    replayed = invoke("replay", str(program), "-o", str(again), "--allow-host", host, "--delay", "0")
    assert replayed.exit_code == 0, replayed.output
    assert [r["Job URL"] for r in read_rows(again)] == [r["Job URL"] for r in rows]


def test_user_errors_print_one_line_and_exit_1(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    result = run("replay", str(tmp_path / "bad.json"), cwd=tmp_path)
    assert result.returncode == 1
    assert "invalid JSON" in result.stderr and "Traceback" not in result.stderr


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def test_lists_without_a_list_on_the_page_is_a_user_error(mutable_site, tmp_path: Path) -> None:
    mutable_site.pages["/about"] = "<html><body><h1>About us</h1><p>We are a small team.</p></body></html>"
    result = invoke(
        "lists",
        mutable_site.url("/about"),
        "--goal",
        "jobs",
        "--columns",
        "Title",
        "--llm",
        "none",
        "-o",
        str(tmp_path / "x.csv"),
        "--allow-host",
        f"{mutable_site.host}:{mutable_site.port}",
    )
    assert isinstance(result.exception, RecordingError) and "no repeating list" in str(result.exception)


def test_bench_weblists_writes_scores(tmp_path: Path) -> None:
    result = invoke(
        "bench", "weblists", "--llm", "none", "--use-case", "blog", "--json", str(tmp_path / "w.json")
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "w.json").read_text())
    assert {case["site"] for case in data["cases"]} == {"acme", "globex", "northwind"}
    assert data["summary"]["blog_recall"] > 0.9 and data["summary"]["llm_calls"] == 0


@pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")
def test_bench_nexteval_on_two_pages(tmp_path: Path) -> None:
    result = invoke(
        "bench",
        "nexteval",
        "--html",
        str(NEXT_EVAL / "html"),
        "--groundtruth",
        str(NEXT_EVAL / "groundtruth"),
        "--limit",
        "2",
        "--json",
        str(tmp_path / "n.json"),
    )
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "n.json").read_text())["summary"]["pages"] == 2


@pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")
def test_bench_nexteval_render_without_a_browser_falls_back_and_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SCRAPESMITH_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("SCRAPESMITH_CACHE_DIR", str(tmp_path / "cache"))  # no layout drawn earlier to read
    args = ["--html", str(NEXT_EVAL / "html"), "--groundtruth", str(NEXT_EVAL / "groundtruth"), "--pages", "11"]
    result = invoke("bench", "nexteval", *args, "--render", "--json", str(tmp_path / "r.json"))
    assert result.exit_code == 0, result.output
    assert "1 of 1 pages were not rendered and used the DOM evidence alone" in result.output
    assert "Chromium not found" in result.output
    summary = json.loads((tmp_path / "r.json").read_text())["summary"]
    assert summary["pages_not_rendered"] == 1 and summary["pages_rendered"] == 0
