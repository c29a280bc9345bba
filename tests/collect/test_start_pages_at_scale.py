"""A collection program.py over many start pages (``run program.py starts.txt -o OUT``): one sandboxed run
per start page, sharded and resumable like any scaled run; a failing start page is an error row."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import scrapesmith
from scrapesmith.collect import collect
from scrapesmith.collect.pages import CollectionPages, NotRunnableOnPages
from scrapesmith.io import read_rows
from scrapesmith.scale import FetchOptions, InlineRunner, RunPlan, assemble, run_pages
from scrapesmith.sites.synthetic import SyntheticServer, category_items, item_truth, serve_synthetic

SOURCE = str(Path(scrapesmith.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([SOURCE, os.environ.get("PYTHONPATH", "")]),
       "SCRAPESMITH_POLITENESS_DELAY": "0", "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}


@pytest.fixture(scope="module")
def shop() -> Iterator[SyntheticServer]:
    with serve_synthetic(10_000) as server:
        yield server


@pytest.fixture(scope="module")
def program(shop, tmp_path_factory) -> Path:
    """A program collected (no model) from one category page of the shop: its cards' titles and prices."""
    run_dir = tmp_path_factory.mktemp("collected")
    result = collect(f"Products at http://{shop.host}/category/0 with columns title and price", llm=None,
                     run_dir=run_dir, allow_hosts=[shop.host], delay=0)
    assert result.rows == 25
    return run_dir / "program.py"


def _starts(workdir: Path, shop: SyntheticServer, categories: list[int]) -> Path:
    path = workdir / "starts.txt"
    path.write_text("".join(f"http://{shop.host}/category/{c}\n" for c in categories), encoding="utf-8")
    return path


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapesmith", "run", *args], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=300, check=False)


def _assert_each_category_once(dataset: Path, categories: list[int]) -> None:
    """Every card of every start page exactly once, with the title and price its item has."""
    rows = [row for row in read_rows(dataset) if not row.get("error")]
    expected = Counter((item_truth(n)["name"], item_truth(n)["price"]) for c in categories
                       for n in category_items(c, 10_000))
    assert Counter((row["title"], row["price"]) for row in rows) == expected


def test_a_program_over_start_pages_killed_with_sigkill_resumes_with_every_row_once(program, shop, tmp_path,
                                                                                      committed_batches):
    categories = list(range(1, 7))
    _starts(tmp_path, shop, categories)
    args = (str(program), "starts.txt", "-o", "cards.parquet", "--allow-host", "127.0.0.1", "--delay", "0",
            "--batch-size", "1", "--workers", "2")
    process = subprocess.Popen([sys.executable, "-m", "scrapesmith", "run", *args], cwd=tmp_path, env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while committed_batches(tmp_path / "cards.run") < 2:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run committed nothing"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    done_before = committed_batches(tmp_path / "cards.run")
    assert 2 <= done_before < len(categories) and not (tmp_path / "cards.parquet").exists()

    resumed = _run(*args, "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{done_before} pages done before this run" in resumed.stderr
    _assert_each_category_once(tmp_path / "cards.parquet", categories)


def test_a_start_page_that_fails_is_an_error_row_and_the_run_goes_on(program, shop, tmp_path):
    _starts(tmp_path, shop, [2, 999, 3])
    done = _run(str(program), "starts.txt", "-o", "cards.csv", "--allow-host", "127.0.0.1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 start pages failed" in done.stderr
    _assert_each_category_once(tmp_path / "cards.csv", [2, 3])
    errors = [row for row in read_rows(tmp_path / "cards.csv") if row.get("error")]
    assert [(row["source_url"], row["error"]) for row in errors] == [
        (f"http://{shop.host}/category/999", f"http://{shop.host}/category/999: HTTP 404 Not Found")]


def test_a_program_that_fails_on_one_start_page_fails_that_page_only(shop, tmp_path):
    program = tmp_path / "program.py"
    program.write_text(f'''from scrapesmith.collect.runtime import Collection

PROGRAM_ID = "by-hand"
SOURCES = [{{"url": "http://{shop.host}/category/0", "label": ""}}]

if __name__ == "__main__":
    with Collection(PROGRAM_ID, allow_hosts=["{shop.host}"], delay=0) as run:
        for source in SOURCES:
            if source["url"].endswith("/5"):
                raise RuntimeError("no cards on this page")
            run.write([{{"title": run.fetch(source["url"]).url, "source_url": source["url"]}}])
''', encoding="utf-8")
    pages = CollectionPages(program, [shop.host])
    urls = [f"http://{shop.host}/category/{c}" for c in (4, 5, 6)]
    summary, state, _ = run_pages(urls, pages, RunPlan(tmp_path / "hand.run"), InlineRunner(),
                                  FetchOptions(allow_hosts=("127.0.0.1",), delay=0))
    assemble(state, tmp_path / "hand.csv")
    state.close()
    assert (summary.ok, summary.failed) == (2, 1)
    rows = read_rows(tmp_path / "hand.csv")
    assert [row["title"] for row in rows if not row["error"]] == [urls[0], urls[2]]
    failed = [row for row in rows if row["error"]]
    assert len(failed) == 1 and failed[0]["source_url"] == urls[1]
    assert "the program failed on this start page" in failed[0]["error"]
    assert "no cards on this page" in failed[0]["error"]


def test_a_program_without_a_sources_list_is_refused_in_one_line(tmp_path):
    program = tmp_path / "program.py"
    program.write_text('SOURCES = ["http://127.0.0.1/"]\nprint("hello")\n', encoding="utf-8")
    with pytest.raises(NotRunnableOnPages, match="no plain SOURCES list") as caught:
        CollectionPages(program, ["127.0.0.1"])
    assert "\n" not in str(caught.value)


def test_start_pages_without_an_output_are_a_usage_error(program, shop, tmp_path):
    _starts(tmp_path, shop, [1])
    done = _run(str(program), "starts.txt", "--allow-host", "127.0.0.1", cwd=tmp_path)
    assert done.returncode == 2 and "needs -o OUTPUT" in done.stderr and "Traceback" not in done.stderr
