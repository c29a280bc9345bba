"""``collect`` says when a column came out empty (issue 44): a warning on the command line, in result.json and
in report.html, exit status 4 under ``--strict``; and its columns are matched by meaning where no name fits.
Through the real CLI, on a saved NEXT-EVAL list page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.collect.mapping import map_columns

NEXT_EVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"


@pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")
def test_an_empty_column_is_a_warning_and_exit_4_under_strict(tmp_path):
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "list.html").write_bytes((NEXT_EVAL / "html" / "1.html").read_bytes())
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "collect",
                           "All records with columns title, url and population", "--from", "saved/", "--llm", "none",
                           "--run-dir", "run", "--strict"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 4, done.stderr
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert result["rows"] == 25 and result["warnings"], result
    column = result["warnings"][0].split("'")[1]
    assert f"warning: column '{column}' is empty in 25 of 25 rows" in done.stderr
    assert f"warning: column &#39;{column}&#39; is empty" in (tmp_path / "run" / "report.html").read_text()


def test_columns_no_name_fits_are_matched_by_meaning():
    mapping, unmapped = map_columns(["cost", "homepage", "adjusted close"], ["price", "website", "close"])
    assert mapping == {"cost": "price", "homepage": "website"} and unmapped == ["adjusted close"]


def test_the_first_column_names_the_records_when_nothing_else_fits():
    assert map_columns(["course", "url"], ["title", "link"]) == ({"url": "link", "course": "title"}, [])
    assert map_columns(["course", "url"], ["title", "name", "link"])[1] == ["course"]  # two names: no guess
