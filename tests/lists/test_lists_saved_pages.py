"""A list program recorded on saved pages stays in them (issue 44): it follows a link only to a saved page in
the folder of the pages given, or with ``--base-url`` to the saved copy of a page under that address; every
link and pagination step it does not follow is counted and said once, with the reason.

The pages are saved NEXT-EVAL list pages whose links are all absolute (``https://example.com/…``): page 15 has
a "load more" link, page 1 a table of records each linking to its own page. Run through the real CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

NEXT_EVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
pytestmark = pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")


def saved_page(folder: Path, number: int) -> Path:
    folder.mkdir(exist_ok=True)
    page = folder / "list.html"
    page.write_bytes((NEXT_EVAL / "html" / f"{number}.html").read_bytes())
    return page


def lists(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "lists", *args, "--llm", "none", "-o", "rows.csv",
                           "--program", "program.json"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    record = json.loads((cwd / "rows.run.json").read_text()) if (cwd / "rows.run.json").is_file() else {}
    return done, record


def test_a_load_more_link_to_the_web_is_not_taken_and_is_said_once(tmp_path):
    saved_page(tmp_path / "saved", 15)
    done, record = lists(tmp_path, "saved/list.html", "--goal", "all episodes", "--columns", "Title,URL")
    assert done.returncode == 0, done.stderr
    assert "cannot resolve host" not in done.stderr and "pagination failed" not in done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("warning:") and "not followed" in line]
    assert said == [("warning: 1 pagination step not followed: it leads to the web, off the saved pages "
                    "(e.g. https://example.com/78)")]
    assert record["stop_reason"] == "pagination stays in the saved pages" and record["failures"] == []
    assert record["not_followed"] == [{"link": "pagination step", "reason": "it leads to the web, off the saved "
                                       "pages", "count": 1, "example": "https://example.com/78"}]
    assert "--base-url" in done.stderr  # the way to follow them, once


def test_base_url_reads_the_next_page_from_its_saved_copy(tmp_path):
    page = saved_page(tmp_path / "saved", 15)
    (tmp_path / "saved" / "78.html").write_bytes(page.read_bytes())  # the "load more" page, saved beside it
    done, record = lists(tmp_path, "saved/list.html", "--goal", "all episodes", "--columns", "Title,URL",
                         "--base-url", "https://example.com/")
    assert done.returncode == 0, done.stderr
    assert record["pages"] == 2 and record["not_followed"] == [] and record["failures"] == []
    assert record["stop_reason"] == "no new items"  # the saved copy repeats the first page's items
    program = json.loads((tmp_path / "program.json").read_text())
    assert program["base_url"] == "https://example.com/"


def test_detail_links_to_the_web_are_counted_once_not_fetched(tmp_path):
    """A column not on the list (Population) sends the recorder to the records' own pages: all on the web."""
    saved_page(tmp_path / "saved", 1)
    done, _record = lists(tmp_path, "saved/list.html", "--goal", "all records", "--columns", "Title,URL,Population")
    assert done.returncode == 0, done.stderr
    assert "cannot resolve host" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if "detail links not followed" in line]
    assert len(notes) == 1 and "it leads to the web, off the saved pages (e.g. https://example.com/" in notes[0]
    assert notes[0].strip().startswith("# 3 detail links not followed")


def test_replay_of_a_program_recorded_on_saved_pages_stays_in_them(tmp_path):
    saved_page(tmp_path / "saved", 15)
    recorded, _ = lists(tmp_path, "saved/list.html", "--goal", "all episodes", "--columns", "Title,URL")
    assert recorded.returncode == 0, recorded.stderr
    env = {**os.environ, "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    replayed = subprocess.run([sys.executable, "-m", "scrapesmith", "replay", "program.json", "-o", "again.csv"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert replayed.returncode == 0, replayed.stderr
    assert "cannot resolve host" not in replayed.stderr and "failed:" not in replayed.stderr
    assert "1 pagination step not followed: it leads to the web" in replayed.stderr


def test_saved_pages_read_only_files_in_their_folder_and_saved_copies_under_the_base_url(tmp_path):
    from scrapesmith.web import FileFetcher, LeavesSavedPages, RoutingFetcher, SavedPages

    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "list.html").write_text("<p>list</p>")
    (folder / "jobs").mkdir()
    (folder / "jobs" / "7.html").write_text("<p>job 7</p>")
    (tmp_path / "outside.html").write_text("<p>not saved with them</p>")
    pages = SavedPages(RoutingFetcher(file=FileFetcher()), folder, "https://jobs.example/")
    assert pages.fetch(str(folder / "list.html")).text == "<p>list</p>"
    assert pages.fetch("https://jobs.example/jobs/7").text == "<p>job 7</p>"
    for url, why in [((folder / "../outside.html").as_uri(), "outside the folder of the saved pages"),
                     ("https://other.example/x", "it leads off https://jobs.example/"),
                     ("https://jobs.example/jobs/8", "no saved copy under")]:
        with pytest.raises(LeavesSavedPages, match=why):
            pages.fetch(url)


def test_a_replay_over_many_saved_start_pages_stays_in_them_and_keeps_one_row_per_reason(tmp_path):
    saved_page(tmp_path / "saved", 15)
    (tmp_path / "saved" / "other.html").write_bytes((tmp_path / "saved" / "list.html").read_bytes())
    recorded, _ = lists(tmp_path, "saved/list.html", "--goal", "all episodes", "--columns", "Title,URL")
    assert recorded.returncode == 0, recorded.stderr
    env = {**os.environ, "SCRAPESMITH_POLITENESS_DELAY": "0", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "replay", "program.json", "--start-urls",
                           "saved/list.html", "--start-urls", "saved/other.html", "-o", "many.csv"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    from scrapesmith.io import read_rows

    errors = [row["error"] for row in read_rows(tmp_path / "many.csv") if row["error"]]
    assert errors == [("1 pagination step not followed: it leads to the web, off the saved pages "
                      "(e.g. https://example.com/78)")] * 2
