"""The real command line: induce from demo-site URLs, run the spec on URLs and files, bench swde on SWDE."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from scrapesmith.induce.views import ScraperSpec

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_POLITENESS_DELAY": "0", "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run(
        check=False,
        args=[sys.executable, "-m", "scrapesmith", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def induced(tmp_path_factory, book_layouts, demo_web):
    """One `scrapesmith induce` run on three bookshelf detail URLs, shared by the tests below."""
    workdir = tmp_path_factory.mktemp("cli")
    host = f"{demo_web.host}:{demo_web.port}"
    site = book_layouts["bookshelf"]
    done = scrapesmith(
        "induce",
        *site.urls[:3],
        "--field",
        "isbn_13=the ISBN-13 of the book",
        "--field",
        "author=the author(s)",
        "-f",
        "price=the sale price",
        "--allow-host",
        host,
        "-o",
        "spec.json",
        cwd=workdir,
    )
    return workdir, host, site, done


def test_induce_writes_a_spec_and_prints_xpaths_and_seed_values(induced):
    workdir, _, site, done = induced
    assert done.returncode == 0, done.stderr
    spec = ScraperSpec.load(workdir / "spec.json")
    assert [f.name for f in spec.fields] == ["isbn_13", "author", "price"]
    assert spec.method == "heuristic" and spec.seeds == site.urls[:3]
    assert "[normalize-space()=" in done.stderr  # the chosen XPaths are shown whole
    assert site.truth[site.urls[0]]["isbn_13"] in done.stderr  # with the values they extract on the seeds


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_run_applies_the_spec_to_urls_with_provenance(induced, suffix):
    workdir, host, site, _ = induced
    out = workdir / f"rows{suffix}"
    done = scrapesmith("run", "spec.json", *site.urls[3:6], "--allow-host", host, "-o", str(out), cwd=workdir)
    assert done.returncode == 0, done.stderr
    if suffix == ".parquet":
        rows = pq.read_table(out).to_pylist()
    elif suffix == ".jsonl":
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    else:
        import csv

        rows = list(csv.DictReader(out.open()))
    spec_id = ScraperSpec.load(workdir / "spec.json").spec_id
    assert [r["source_url"] for r in rows] == site.urls[3:6]
    assert all(r["program_id"] == spec_id and r["fetched_at"] for r in rows)
    assert [r["isbn_13"] for r in rows] == [site.truth[u]["isbn_13"] for u in site.urls[3:6]]


def test_run_on_local_files_and_a_failing_url_records_the_failure(induced):
    workdir, host, site, _ = induced
    (workdir / "page.html").write_text(site.pages[6].text, encoding="utf-8")
    missing = site.urls[0].rsplit("/", 1)[0] + "/no-such-book.html"
    done = scrapesmith(
        "run", "spec.json", "page.html", missing, "--allow-host", host, "-o", "out.jsonl", cwd=workdir
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (workdir / "out.jsonl").read_text().splitlines()]
    assert rows[0]["isbn_13"] == site.truth[site.urls[6]]["isbn_13"] and rows[0]["source_url"].startswith(
        "file:"
    )
    assert rows[1]["isbn_13"] is None and "404" in rows[1]["error"]
    assert "1 pages failed" in done.stderr


def test_a_page_robots_txt_refuses_is_a_row_with_an_error_and_the_batch_goes_on(induced, demo_web):
    # README: "A failed page (404, refused by robots.txt, a missing file) is a row with an `error`"
    workdir, host, site, _ = induced
    refused = demo_web.url("/private/")  # the demo web's robots.txt disallows /private/
    asked_before = demo_web.request_log.paths().count("/private/")
    done = scrapesmith("run", "spec.json", site.urls[3], refused, site.urls[4], "--allow-host", host,
                       "-o", "robots.jsonl", cwd=workdir)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (workdir / "robots.jsonl").read_text().splitlines()]
    assert [row["source_url"] for row in rows] == [site.urls[3], refused, site.urls[4]]
    assert rows[1]["isbn_13"] is None and "robots.txt" in rows[1]["error"]
    assert [rows[0]["isbn_13"], rows[2]["isbn_13"]] == [site.truth[u]["isbn_13"] for u in site.urls[3:5]]
    assert "1 pages failed" in done.stderr
    assert demo_web.request_log.paths().count("/private/") == asked_before  # never fetched
    assert "/robots.txt" in demo_web.request_log.paths()


def test_run_rejects_what_it_cannot_run_with_one_line(tmp_path):
    (tmp_path / "spec.yaml").write_text("x: 1\n")
    done = scrapesmith("run", "spec.yaml", "page.html", "-o", "out.csv", cwd=tmp_path)
    assert done.returncode == 1 and "takes a scraper spec" in done.stderr and "Traceback" not in done.stderr


def test_induce_rejects_a_malformed_field(tmp_path):
    done = scrapesmith("induce", "x.html", "--field", "=nothing", cwd=tmp_path)
    assert done.returncode == 2 and "Invalid value for '--field': '=nothing'" in done.stderr


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_bench_swde_scores_a_small_heuristic_run_and_writes_json(tmp_path):
    out = tmp_path / "swde.json"
    done = scrapesmith(
        "bench",
        "swde",
        "--pages",
        str(SWDE),
        "--sites",
        "booksamillion",
        "--attributes",
        "isbn_13,publisher",
        "--seeds",
        "3",
        "--test",
        "20",
        "--method",
        "heuristic",
        "--json",
        str(out),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["summary"]["cases"] == 2
    assert result["summary"]["llm_calls"] == 0 and result["summary"]["execute_llm_calls"] == 0
    assert result["summary"]["pages_per_s"] > 0 and result["summary"]["lxml_pages_per_s"] > 0
    assert {c["attribute"] for c in result["cases"]} == {"isbn_13", "publisher"}
    assert all(
        c["category"] in ("correct", "prec", "recall", "unex", "over", "else") for c in result["cases"]
    )


def test_bench_swde_reports_missing_data_in_one_line(tmp_path):
    done = scrapesmith("bench", "swde", "--pages", str(tmp_path / "nope"), cwd=tmp_path)
    assert done.returncode == 1 and "not found" in done.stderr


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_bench_swde_mutate_forges_on_redrawn_pages_and_reports_each_kind(tmp_path):
    out = tmp_path / "mutated.json"
    done = scrapesmith("bench", "swde", "--pages", str(SWDE), "--sites", "booksamillion", "--attributes",
                       "isbn_13,publisher", "--seeds", "3", "--test", "3", "--mutate", "wrappers,tables",
                       "--mutation-seeds", "0", "--json", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    kinds = [row["kind"] for row in result["params"]["per_kind"]]
    assert kinds == ["none", "wrappers", "tables"] and all(row["cases"] == 2 for row in result["params"]["per_kind"])
    assert {(c["mutation"], c["attribute"]) for c in result["cases"]} == {
        (k, a) for k in kinds for a in ("isbn_13", "publisher")}
    assert "wrappers_correct_ratio" in result["summary"] and "per kind" in done.stdout
    wrong = scrapesmith("bench", "swde", "--pages", str(SWDE), "--mutate", "shuffle", cwd=tmp_path)
    assert wrong.returncode == 2 and "--mutate takes" in wrong.stderr
