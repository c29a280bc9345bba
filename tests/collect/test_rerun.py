"""``scrapesmith run runs/X/program.py``: a rerun never overwrites the collection it reruns."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from scrapesmith.collect import collect
from scrapesmith.io import read_rows


@pytest.fixture(scope="module")
def collected(demo_web, tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("standings")
    url = demo_web.url("/sports/season/2024/standings.html")
    collect(f"Standings at {url} with columns team, wins and losses", llm=None, run_dir=run_dir,
            allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0)
    return run_dir


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", "run", *args], env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def test_rerun_writes_where_o_says_and_keeps_the_original_dataset(collected, demo_web, tmp_path):
    original = (collected / "dataset.csv").read_bytes()
    output = tmp_path / "other.jsonl"
    done = _run(str(collected / "program.py"), "-o", str(output), "--allow-host", "127.0.0.1")
    assert done.returncode == 0, done.stderr
    assert (collected / "dataset.csv").read_bytes() == original
    assert [row["team"] for row in read_rows(output)] == [row["team"] for row in read_rows(collected / "dataset.csv")]
    assert f"-> {output}" in done.stderr


def test_rerun_without_o_goes_to_a_reruns_folder(collected, demo_web):
    original = (collected / "dataset.csv").read_bytes()
    done = _run(str(collected / "program.py"), "--allow-host", "127.0.0.1")
    assert done.returncode == 0, done.stderr
    assert (collected / "dataset.csv").read_bytes() == original
    reruns = sorted((collected / "reruns").iterdir())
    assert reruns and (reruns[-1] / "dataset.csv").is_file() and (reruns[-1] / "rerun.report.html").is_file()
    assert len(read_rows(reruns[-1] / "dataset.csv")) == len(read_rows(collected / "dataset.csv"))
