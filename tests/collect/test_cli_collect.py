"""``scrapesmith collect`` and ``scrapesmith run program.py`` from the command line (no model)."""

from __future__ import annotations

import csv
import subprocess
import sys


def scrapesmith(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], capture_output=True, text=True, check=False, cwd=cwd,
                          timeout=300)


def test_collect_then_run_program_py_recollects_the_same_rows(demo_web, allow, tmp_path):
    url = demo_web.url("/sports/season/2024/standings.html")
    done = scrapesmith("collect", f"Team standings at {url} with columns team, wins and losses",
                       "--llm", "none", "--allow-host", allow[0], "--delay", "0", "--run-dir", "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "8 rows" in done.stderr and "scrapesmith run" in done.stderr
    first = (tmp_path / "run" / "dataset.csv").read_text()
    with (tmp_path / "run" / "dataset.csv").open() as handle:
        teams = {row["team"] for row in csv.DictReader(handle)}
    assert teams == {r["team"] for r in demo_web.sites.truth("sports")["team_seasons"] if r["year"] == 2024}
    assert f"scrapesmith run run/program.py --allow-host {allow[0]}" in done.stderr
    refused = scrapesmith("run", "run/program.py", cwd=tmp_path)
    assert refused.returncode == 1 and f"pass --allow-host {allow[0]}" in refused.stderr
    rerun = scrapesmith("run", "run/program.py", "--allow-host", allow[0], cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert "0 LLM calls" in rerun.stderr
    assert (tmp_path / "run" / "dataset.csv").read_text() == first  # the rerun leaves the run's own rows alone
    [rerun_dir] = (tmp_path / "run" / "reruns").iterdir()
    assert _data_columns((rerun_dir / "dataset.csv").read_text()) == _data_columns(first)


def _data_columns(text: str) -> list[tuple[str, str, str]]:
    return [(row["team"], row["wins"], row["losses"]) for row in csv.DictReader(text.splitlines())]


def test_collect_without_start_url_and_without_model_fails_in_one_line(tmp_path):
    done = scrapesmith("collect", "All papers of CLML 2023 with columns title, url", "--llm", "none", cwd=tmp_path)
    assert done.returncode == 1
    assert "must name a start URL" in done.stderr and "Traceback" not in done.stderr


def test_run_reports_a_failing_program_in_one_line(tmp_path):
    (tmp_path / "program.py").write_text("raise SystemExit(4)\n")
    done = scrapesmith("run", "program.py", cwd=tmp_path)
    assert done.returncode == 1 and "error (exit 4" in done.stderr and "Traceback" not in done.stderr


def test_run_names_what_of_the_programs_folder_it_did_not_keep(tmp_path):
    (tmp_path / "program.py").write_text(
        "import os\nopen('dataset.csv', 'w').write('title\\nkept\\n')\nos.symlink('dataset.csv', 'failures.json')\n")
    done = scrapesmith("run", "program.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "sandbox: not kept: failures.json: a symbolic link, not a regular file" in done.stderr
    assert "1 rows ->" in done.stderr


def test_run_reports_an_unreadable_dataset_in_one_line_and_marks_the_rerun_failed(tmp_path):
    (tmp_path / "program.py").write_text("open('dataset.csv', 'wb').write(b'title\\n\\xff\\n')\n")
    done = scrapesmith("run", "program.py", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "not a readable dataset ('utf-8' codec can't decode" in done.stderr and "marked failed in" in done.stderr
