"""``lists`` takes the same inputs as the rest of the CLI (local files, file:// URLs, directories of saved
pages) and ``--runtime auto`` moves to Chromium only when the page needs scripts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scrapesmith.bench.weblists import url_key
from scrapesmith.cli import app
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import read_rows
from scrapesmith.lists.auto import auto_runtimes
from scrapesmith.lists.browser import BrowserRuntimes
from scrapesmith.lists.service import extract_list, http_runtimes
from scrapesmith.web.fetch import FileFetcher, HttpFetcher, RoutingFetcher


def saved_page(path: Path, first: int, next_name: str | None = None) -> Path:
    cards = "".join(
        f'<li class="job"><h3><a href="/jobs/{i}">Engineer</a></h3><p class="place">City {i}</p></li>'
        for i in range(first, first + 4)
    )
    pager = f'<a href="{next_name}">Next</a>' if next_name else ""
    path.write_text(f"<html><body><nav><a href='/'>Home</a></nav><ul>{cards}</ul>{pager}</body></html>")
    return path


def run_lists(source: str, out: Path, *extra: str):
    return CliRunner().invoke(
        app,
        ["lists", source, "--goal", "jobs", "--columns", "Job Title,Place", "--llm", "none", "-o", str(out), *extra],
    )


def test_local_file_and_file_url_follow_pagination_on_disk(tmp_path: Path) -> None:
    first = saved_page(tmp_path / "jobs.html", 1, next_name="jobs-2.html")
    saved_page(tmp_path / "jobs-2.html", 5)
    for source in (str(first), first.as_uri()):
        out = tmp_path / "rows.csv"
        result = run_lists(source, out)
        assert result.exit_code == 0, result.output
        rows = read_rows(out)
        assert [row["Place"] for row in rows] == [f"City {i}" for i in range(1, 9)]
        assert all(row["Job Title"] == "Engineer" for row in rows)  # equal titles, distinct jobs


def test_a_directory_is_recorded_on_its_first_page_and_run_on_each(tmp_path: Path) -> None:
    pages = tmp_path / "saved"
    pages.mkdir()
    saved_page(pages / "a.html", 1)
    saved_page(pages / "b.html", 11)
    out = tmp_path / "rows.jsonl"
    result = run_lists(str(pages), out)
    assert result.exit_code == 0, result.output
    places = [row["Place"] for row in read_rows(out)]
    assert places == [f"City {i}" for i in (1, 2, 3, 4, 11, 12, 13, 14)]


def test_a_missing_local_page_is_a_user_error(tmp_path: Path) -> None:
    result = run_lists(str(tmp_path / "nope.html"), tmp_path / "rows.csv")
    assert isinstance(result.exception, ScrapesmithError) and "no such file" in str(result.exception)


@pytest.mark.browser
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")
def test_auto_runtime_uses_chromium_only_for_the_script_built_list(demo_web) -> None:
    host = f"{demo_web.host}:{demo_web.port}"
    with (
        RoutingFetcher(http=HttpFetcher(allow_hosts=[host], delay=0.0), file=FileFetcher()) as fetcher,
        BrowserRuntimes([host], delay=0.0) as browser,
    ):
        runtimes = auto_runtimes(http_runtimes(fetcher), browser)
        scripted, result = extract_list(
            runtimes, demo_web.url("/globex/careers/"), "all open jobs", ["Job Title", "Job URL"]
        )
        plain, _ = extract_list(runtimes, demo_web.url("/acme/careers/"), "all open jobs", ["Job Title"])
    assert scripted.program.runtime == "browser" and plain.program.runtime == "http"
    assert any(note.startswith("runtime auto: browser") for note in scripted.program.notes)
    truth = demo_web.sites.truth("globex")["jobs"]
    assert sorted(url_key(row["Job URL"]) for row in result.rows) == sorted(url_key(j["url"]) for j in truth)


def test_a_txt_url_list_is_recorded_on_its_first_page_and_run_on_each(tmp_path: Path, mutable_site) -> None:
    """The form ``scrapesmith crawl -o urls.txt`` writes: one URL a line; comments, blanks and a saved page too."""
    for name, first in (("a", 1), ("b", 21)):
        mutable_site.pages[f"/{name}"] = saved_page(tmp_path / f"{name}.html", first).read_text()
    saved_page(tmp_path / "c.html", 41)
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# from crawl\n{mutable_site.url('/a')}\n\n{mutable_site.url('/b')}\nc.html\n")
    out = tmp_path / "rows.csv"
    result = run_lists(str(urls), out, "--allow-host", f"{mutable_site.host}:{mutable_site.port}", "--delay", "0")
    assert result.exit_code == 0, result.output
    places = [row["Place"] for row in read_rows(out)]
    assert places == [f"City {i}" for i in (1, 2, 3, 4, 21, 22, 23, 24, 41, 42, 43, 44)]
    assert {"/a", "/b"} <= set(mutable_site.requests)


def test_an_empty_url_list_is_one_error(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("# nothing yet\n\n")
    result = run_lists(str(urls), tmp_path / "rows.csv")
    assert isinstance(result.exception, ScrapesmithError) and "no pages in" in str(result.exception)
