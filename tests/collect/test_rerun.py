"""``scrapesmith run runs/X/program.py``: a rerun never overwrites the collection it reruns."""

from __future__ import annotations

import json
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


def test_a_dataset_larger_than_the_caller_reads_back_is_one_line_and_a_failed_rerun(tmp_path):
    from scrapesmith.collect.program import rerun_program
    from scrapesmith.collect.sandbox import SandboxLimits
    from scrapesmith.errors import ScrapesmithError

    program = tmp_path / "program.py"
    program.write_text('open("dataset.csv", "w").write("title\\n" + "row\\n" * 600_000)\n')
    with pytest.raises(ScrapesmithError, match=r"dataset\.csv: not read \(larger than 1,048,576 bytes\)") as caught:
        rerun_program(program, [], limits=SandboxLimits(dataset_mb=1))
    assert "\n" not in str(caught.value)
    record = json.loads(next((tmp_path / "reruns").glob("*/rerun.run.json")).read_text())
    assert record["failed"] is True and record["dataset"] == ""
