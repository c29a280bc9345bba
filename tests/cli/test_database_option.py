"""``--to`` / ``--key`` on the commands that write rows: the same rows as the file, in a table, upserted on a rerun."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.dom import parse_html
from scrapesmith.induce import FieldRequest, induce_scraper
from scrapesmith.io import read_table


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_POLITENESS_DELAY": "0", "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=180, check=False)


@pytest.fixture(scope="module")
def book_spec(demo_web, tmp_path_factory) -> tuple[Path, list[str]]:
    """A spec induced on three bookshelf pages, and the URLs of three others to run it on."""
    paths = demo_web.sites.urls("bookshelf", kind="detail")
    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book"), FieldRequest("title", "the title")],
                          [parse_html(demo_web.sites.respond(p).body) for p in paths[:3]], method="heuristic")
    folder = tmp_path_factory.mktemp("db-cli")
    spec.save(folder / "spec.json")
    return folder, [demo_web.url(p) for p in paths[3:6]]


def test_run_writes_the_rows_into_each_database_and_a_rerun_updates_them(book_spec, demo_web, database_url):
    folder, urls = book_spec
    host = f"{demo_web.host}:{demo_web.port}"
    database = database_url
    for _ in range(2):
        done = scrapesmith("run", "spec.json", *urls, "--allow-host", host, "-o", "books.csv", "--to", database,
                           "--key", "isbn_13", cwd=folder)
        assert done.returncode == 0, done.stderr
        assert "3 rows upserted into books at " in done.stderr and "(3 rows in the table)" in done.stderr
    table = {row["isbn_13"]: row for row in read_table(database, "books")}
    with (folder / "books.csv").open() as handle:
        written = list(csv.DictReader(handle))
    assert sorted(table) == sorted(row["isbn_13"] for row in written)
    for row in written:
        stored = table[row["isbn_13"]]
        assert (stored["title"], stored["source_url"], stored["program_id"]) == (
            row["title"], row["source_url"], row["program_id"])
        assert stored["first_seen"] < stored["last_seen"]


def test_lists_and_replay_upsert_into_duckdb(demo_web, tmp_path):
    host = f"{demo_web.host}:{demo_web.port}"
    database = f"duckdb:///{tmp_path / 'jobs.duckdb'}"
    common = ["--allow-host", host, "--to", database, "--key", "Job URL", "--table", "jobs"]
    first = scrapesmith("lists", demo_web.url("/acme/careers/"), "--goal", "all open Engineering jobs", "--columns",
                        "Job Title,Job URL", "--llm", "none", "-o", "jobs.csv", "--program", "jobs.json", *common,
                        cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    rows = read_table(database, "jobs")
    assert rows and all(row["Job URL"].startswith("http://") for row in rows)
    again = scrapesmith("replay", "jobs.json", "-o", "again.csv", *common, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert f"({len(rows)} rows in the table)" in again.stderr
    assert len(read_table(database, "jobs")) == len(rows)


def test_crawl_writes_the_pages_it_reached(demo_web, tmp_path):
    host = f"{demo_web.host}:{demo_web.port}"
    database = f"sqlite:///{tmp_path / 'urls.db'}"
    done = scrapesmith("crawl", demo_web.url("/pagecraft/shop/"), "--follow", 'a[href*="/p/"]', "--max-pages", "5",
                       "--allow-host", host, "-o", "urls.txt", "--to", database, "--key", "url", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = (tmp_path / "urls.txt").read_text().split()
    stored = read_table(database, "urls")
    assert sorted(row["url"] for row in stored) == sorted(listed)
    assert {row["program_id"] for row in stored} == {'crawl --follow a[href*="/p/"]'}


@pytest.mark.parametrize("flags, message", [
    (["--key", "isbn_13"], "--key goes with --to DATABASE_URL"),
    (["--to", "mysql://127.0.0.1/x"], "use sqlite:///PATH, duckdb:///PATH or postgresql://"),
])
def test_database_flags_misused_are_one_usage_error(book_spec, flags, message):
    folder, urls = book_spec
    done = scrapesmith("run", "spec.json", urls[0], "-o", "x.csv", *flags, cwd=folder)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_collect_and_its_rerun_upsert_typed_rows(demo_web, tmp_path):
    host = f"{demo_web.host}:{demo_web.port}"
    database = f"sqlite:///{tmp_path / 'sports.db'}"
    url = demo_web.url("/sports/season/2024/standings.html")
    done = scrapesmith("collect", f"Team standings at {url} with columns team, wins and losses", "--llm", "none",
                       "--allow-host", host, "--delay", "0", "--run-dir", "run", "--to", database, "--key", "team",
                       cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "8 rows upserted into run at sqlite:///" in done.stderr
    rerun = scrapesmith("run", "run/program.py", "--allow-host", host, "--to", database, "--key", "team",
                        "--table", "run", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    rows = read_table(database, "run", {"wins": "integer"})
    assert len(rows) == 8 and all(isinstance(row["wins"], int) for row in rows)
    truth = {r["team"]: r for r in demo_web.sites.truth("sports")["team_seasons"] if r["year"] == 2024}
    assert {row["team"]: row["wins"] for row in rows} == {team: int(r["wins"]) for team, r in truth.items()}
