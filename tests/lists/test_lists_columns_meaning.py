"""Columns by meaning, and no silent empty column (issue 44): ``lists`` on a saved NEXT-EVAL list page, through
the real CLI. The page's ground truth gives its record count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.io import read_rows
from scrapesmith.lists.columns import column_kind

NEXT_EVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
pytestmark = pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")


def lists(cwd: Path, columns: str, output: str, *more: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", "lists", "list.html", "--goal", "all records",
                           "--columns", columns, "--llm", "none", "-o", output, *more], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    (tmp_path / "list.html").write_bytes((NEXT_EVAL / "html" / "1.html").read_bytes())
    return tmp_path


def test_a_column_named_for_the_thing_listed_is_filled_as_a_title_would_be(saved):
    records = len(json.loads((NEXT_EVAL / "groundtruth" / "1.json").read_text()))
    by_title = lists(saved, "Title,URL", "title.csv")
    by_thing = lists(saved, "Course,URL", "course.csv")
    assert by_title.returncode == 0 and by_thing.returncode == 0, by_thing.stderr
    titles = [row["Title"] for row in read_rows(saved / "title.csv")]
    courses = [row["Course"] for row in read_rows(saved / "course.csv")]
    assert len(courses) == records and all(courses) and courses == titles
    assert "is empty" not in by_thing.stderr


def test_an_empty_column_is_a_warning_everywhere_and_exit_4_under_strict(saved):
    warned = lists(saved, "Title,URL,Population", "rows.csv")
    assert warned.returncode == 0, warned.stderr
    line = "column 'Population' is empty in 25 of 25 rows"
    assert f"warning: {line}" in warned.stderr
    assert line in json.loads((saved / "rows.run.json").read_text())["warnings"]
    assert "warning: column &#39;Population&#39; is empty in 25 of 25 rows" in (saved / "rows.report.html").read_text()
    strict = lists(saved, "Title,URL,Population", "strict.csv", "--strict")
    assert strict.returncode == 4, strict.stderr
    assert len(read_rows(saved / "strict.csv")) == 25  # still written
    assert lists(saved, "Title,URL", "full.csv", "--strict").returncode == 0


@pytest.mark.parametrize(("column", "kind"), [("Homepage", "url"), ("Price tag", "price"), ("Web page", "url"),
                                              ("Course", "text"), ("Population", "text")])
def test_a_column_name_the_word_lists_miss_takes_its_kind_by_meaning(column, kind):
    assert column_kind(column) == kind
