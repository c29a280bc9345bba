"""What ``lists`` and ``replay`` say on a user's own pages is what happened (issue 44), via the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scrapesmith.cli import app
from scrapesmith.io import read_rows

NEXT_EVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"


def invoke(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


@pytest.mark.skipif(not NEXT_EVAL.is_dir(), reason="shared NEXT-EVAL data not present")
def test_replay_of_one_saved_list_page_counts_its_rows_not_pages(tmp_path: Path) -> None:
    """NEXT-EVAL page 1 lists 25 records (its ground truth); its replay reads 25 rows from one page."""
    page = tmp_path / "list.html"
    page.write_bytes((NEXT_EVAL / "html" / "1.html").read_bytes())
    items = len(json.loads((NEXT_EVAL / "groundtruth" / "1.json").read_text()))
    program = tmp_path / "list.json"
    recorded = invoke("lists", str(page), "--goal", "all items", "--columns", "Title,URL", "--llm", "none",
                      "-o", str(tmp_path / "rows.csv"), "--program", str(program))
    assert recorded.exit_code == 0, recorded.output
    assert len(read_rows(tmp_path / "rows.csv")) == items
    replayed = invoke("replay", str(program), "-o", str(tmp_path / "again.csv"))
    assert replayed.exit_code == 0, replayed.output
    assert f"no drift: the output of {items} rows from 1 page " in replayed.output
    assert f"{items} pages" not in replayed.output and "(1 page," in replayed.output


def test_an_empty_page_over_http_is_said_to_be_empty_not_to_need_a_browser(mutable_site, tmp_path) -> None:
    mutable_site.pages["/empty"] = ""
    result = invoke("lists", mutable_site.url("/empty"), "--goal", "jobs", "--columns", "Title", "--llm", "none",
                    "-o", str(tmp_path / "x.csv"), "--allow-host", f"{mutable_site.host}:{mutable_site.port}")
    assert result.exit_code != 0
    assert "the page has no text" in str(result.exception)
    assert "browser" not in str(result.exception)


def test_an_empty_saved_file_is_said_to_be_empty(tmp_path) -> None:
    page = tmp_path / "saved.html"
    page.write_bytes(b"")
    result = invoke("lists", str(page), "--goal", "jobs", "--columns", "Title", "--llm", "none",
                    "-o", str(tmp_path / "x.csv"))
    assert result.exit_code != 0
    assert "is empty" in str(result.exception) and "browser" not in str(result.exception)


def test_a_page_of_scripts_and_little_text_is_said_to_maybe_need_the_browser(mutable_site, tmp_path) -> None:
    mutable_site.pages["/app"] = "<html><body><div id=root></div><script src='/app.js'></script></body></html>"
    result = invoke("lists", mutable_site.url("/app"), "--goal", "jobs", "--columns", "Title", "--llm", "none",
                    "-o", str(tmp_path / "x.csv"), "--allow-host", f"{mutable_site.host}:{mutable_site.port}")
    assert result.exit_code != 0
    assert getattr(result.exception, "drawn_by_scripts", False)
    assert "may be drawn by the scripts" in str(result.exception)
