"""Exported programs run by Scrapy's own runner (and as a plain script) give the rows scrapesmith gives:
list programs with a filter, pagination and detail pages on the demo web, scraper specs on the demo web and
on saved SWDE pages served over HTTP."""

from __future__ import annotations

import ast
import csv
import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapesmith.dom import parse_html
from scrapesmith.export import ExportError, Politeness, export_python, export_scrapy
from scrapesmith.induce import FieldRequest, ScraperSpec, induce_scraper
from scrapesmith.lists import ListProgram, extract_list, http_runtimes
from scrapesmith.lists.dsl import AnswerQuestion
from scrapesmith.web import HttpFetcher

SWDE_SITE = Path(__file__).resolve().parents[2] / "../shared/data/swde/book/book-booksamillion"
POLITE = Politeness("scrapesmith-test", delay=0.0)


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_POLITENESS_DELAY": "0", "SCRAPESMITH_LLM": "none"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=180, check=False)


def as_text(rows: list[dict]) -> list[str]:
    """Rows as CSV carries them (the run's file), without the time they were fetched, in one order."""
    def cell(value: object) -> str:
        if isinstance(value, list):
            return json.dumps(value, ensure_ascii=False)
        return "" if value is None else str(value)

    return sorted(json.dumps({k: cell(v) for k, v in row.items() if k != "fetched_at"}, sort_keys=True)
                  for row in rows)


def csv_rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def crawl_with_scrapy(project: Path, *arguments: str) -> list[dict]:
    spider = next((project / "forged" / "spiders").glob("[!_]*.py")).stem
    done = subprocess.run([sys.executable, "-m", "scrapy", "crawl", spider, *arguments, "-O", "rows.jsonl"],
                          cwd=project, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Spider closed (finished)" in done.stderr
    return [json.loads(line) for line in (project / "rows.jsonl").read_text(encoding="utf-8").splitlines()]


def run_script(script: Path, *arguments: str) -> list[dict]:
    done = subprocess.run([sys.executable, str(script), *arguments, "-o", "script.jsonl"], cwd=script.parent,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in (script.parent / "script.jsonl").read_text(encoding="utf-8").splitlines()]


def imports_of(folder: Path) -> set[str]:
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names


@pytest.fixture(scope="module")
def demo_host(demo_web) -> str:
    return f"{demo_web.host}:{demo_web.port}"


def record(demo_web, demo_host: str, path: str, goal: str, columns: list[str], folder: Path) -> Path:
    with HttpFetcher(allow_hosts=[demo_host], delay=0.0) as fetcher:
        recording, _ = extract_list(http_runtimes(fetcher), demo_web.url(path), goal, columns)
    return recording.program.save(folder / "program.json")


LISTS = {
    "pagination": ("/acme/careers/", "all open jobs", ["Job Title", "Job URL"]),
    "filter": ("/northwind/jobs/", "all open Design jobs", ["Job Title", "Job URL"]),
    "detail pages": ("/globex/resources/blog/", "all blog posts", ["Post Title", "Post URL", "Author"]),
}


@pytest.mark.parametrize("case", LISTS)
def test_a_list_program_as_a_scrapy_spider_gives_the_replay_rows(case, demo_web, demo_host, tmp_path):
    program_path = record(demo_web, demo_host, *LISTS[case], tmp_path)
    plan = ListProgram.load(program_path).plan()
    assert {"pagination": plan.enter.pagination, "filter": plan.setup, "detail pages": plan.detail_link}[case]
    replayed = scrapesmith("replay", "program.json", "--allow-host", demo_host, "-o", "replay.csv", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    expected = csv_rows(tmp_path / "replay.csv")
    spider = export_scrapy(ListProgram.load(program_path), tmp_path / "jobs", POLITE)
    assert spider.exists() and "scrapesmith" not in imports_of(tmp_path / "jobs")
    rows = crawl_with_scrapy(tmp_path / "jobs")
    assert len(expected) > 2 and as_text(rows) == as_text(expected)


def test_a_list_program_as_a_plain_script_gives_the_replay_rows(demo_web, demo_host, tmp_path):
    program_path = record(demo_web, demo_host, *LISTS["detail pages"], tmp_path)
    assert scrapesmith("replay", "program.json", "--allow-host", demo_host, "-o", "replay.csv",
                       cwd=tmp_path).returncode == 0
    script = export_python(ListProgram.load(program_path), tmp_path / "blog.py", POLITE)
    assert imports_of(tmp_path) - {"scrapesmith"} == imports_of(tmp_path) and "lxml" in imports_of(tmp_path)
    assert as_text(run_script(script)) == as_text(csv_rows(tmp_path / "replay.csv"))


@pytest.fixture(scope="module")
def book_spec(demo_web, tmp_path_factory) -> tuple[Path, list[str]]:
    paths = demo_web.sites.urls("bookshelf", kind="detail")
    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book"), FieldRequest("title", "the title"),
                           FieldRequest("author", "the author(s)"), FieldRequest("price", "the sale price")],
                          [parse_html(demo_web.sites.respond(p).body) for p in paths[:3]], method="heuristic")
    folder = tmp_path_factory.mktemp("spec-export")
    spec.save(folder / "spec.json")
    return folder, [demo_web.url(p) for p in paths[3:9]]


def test_a_scraper_spec_as_a_scrapy_spider_gives_the_run_rows(book_spec, demo_host):
    folder, urls = book_spec
    ran = scrapesmith("run", "spec.json", *urls, "--allow-host", demo_host, "-o", "run.csv", cwd=folder)
    assert ran.returncode == 0, ran.stderr
    export_scrapy(ScraperSpec.load(folder / "spec.json"), folder / "books", POLITE)
    rows = crawl_with_scrapy(folder / "books", "-a", f"urls={','.join(urls)}")
    assert len(rows) == len(urls) and as_text(rows) == as_text(csv_rows(folder / "run.csv"))


def test_a_scraper_spec_as_a_plain_script_gives_the_run_rows(book_spec, demo_host):
    folder, urls = book_spec
    assert scrapesmith("run", "spec.json", *urls, "--allow-host", demo_host, "-o", "run.csv",
                       cwd=folder).returncode == 0
    script = export_python(ScraperSpec.load(folder / "spec.json"), folder / "script" / "books.py", POLITE)
    assert as_text(run_script(script, *urls)) == as_text(csv_rows(folder / "run.csv"))


@pytest.fixture(scope="module")
def swde_server() -> Iterator[str]:
    """The saved pages of one SWDE site served over HTTP on 127.0.0.1."""
    if not SWDE_SITE.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    handler = functools.partial(QuietHandler, directory=str(SWDE_SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


def test_a_spec_induced_on_swde_pages_gives_the_same_rows_in_scrapy(swde_server, tmp_path):
    pages = sorted(SWDE_SITE.glob("*.htm"))
    spec = induce_scraper([FieldRequest("title", "the title of the book"), FieldRequest("author", "the author"),
                           FieldRequest("isbn_13", "the ISBN-13"), FieldRequest("price", "the price")],
                          [parse_html(page.read_bytes()) for page in pages[:3]], method="heuristic")
    spec.save(tmp_path / "spec.json")
    urls = [f"{swde_server}/{page.name}" for page in pages[3:23]]
    ran = scrapesmith("run", "spec.json", *urls, "--allow-host", swde_server.split("//")[1], "-o", "run.csv",
                      cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    expected = csv_rows(tmp_path / "run.csv")
    assert sum(1 for row in expected if row["title"]) >= 15
    export_scrapy(spec, tmp_path / "swde", POLITE)
    assert as_text(crawl_with_scrapy(tmp_path / "swde", "-a", f"urls={','.join(urls)}")) == as_text(expected)


def test_a_program_that_needs_a_model_is_not_exported(tmp_path):
    program = ListProgram(goal="g", start_url="http://127.0.0.1:9/", columns=["Summary"],
                          steps=[AnswerQuestion(element="p", column="Summary", question="what?")])
    with pytest.raises(ExportError, match="asks a model"):
        export_scrapy(program, tmp_path / "p", POLITE)
    assert not (tmp_path / "p").exists()


def test_export_command_writes_a_project_with_the_politeness_asked(book_spec, tmp_path):
    folder, _ = book_spec
    done = scrapesmith("export", str(folder / "spec.json"), "--to", "scrapy", str(tmp_path / "proj"), "--delay",
                       "2.5", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    settings = (tmp_path / "proj" / "forged" / "settings.py").read_text()
    assert "DOWNLOAD_DELAY = 2.5" in settings and "ROBOTSTXT_OBEY = True" in settings
    assert "CONCURRENT_REQUESTS_PER_DOMAIN = 1" in settings
    wrong = scrapesmith("export", str(folder / "spec.json"), "--to", "java", "x", cwd=tmp_path)
    assert wrong.returncode == 2 and "use one of scrapy, python" in wrong.stderr


def test_the_plain_script_on_saved_swde_files_gives_the_run_rows(tmp_path):
    if not SWDE_SITE.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    pages = sorted(SWDE_SITE.glob("*.htm"))
    spec = induce_scraper([FieldRequest("title", "the title of the book"), FieldRequest("author", "the author")],
                          [parse_html(page.read_bytes()) for page in pages[:3]], method="heuristic")
    spec.save(tmp_path / "spec.json")
    (tmp_path / "pages.txt").write_text("".join(f"{page}\n" for page in pages[30:50]), encoding="utf-8")
    ran = scrapesmith("run", "spec.json", "pages.txt", "-o", "run.csv", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    expected = csv_rows(tmp_path / "run.csv")
    assert len(expected) == 20 and all(row["source_url"].startswith("file://") for row in expected)
    script = export_python(spec, tmp_path / "books.py", POLITE)
    assert as_text(run_script(script, str(tmp_path / "pages.txt"))) == as_text(expected)


def test_the_joined_reading_code_defines_both_parts_and_imports_nothing_of_scrapesmith(tmp_path):
    """standalone.py and standalone_run.py are one module in an export: every public name of both, no import
    of scrapesmith, and it runs on its own (a list program's phases split from a page read by it)."""
    from scrapesmith.export import standalone, standalone_run
    from scrapesmith.export.service import standalone_source

    source = standalone_source()
    (tmp_path / "extract.py").write_text(source, encoding="utf-8")
    assert "scrapesmith" not in imports_of(tmp_path)
    tree = ast.parse(source)
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    public = {name for module in (standalone, standalone_run) for name, value in vars(module).items()
              if callable(value) and getattr(value, "__module__", "") == module.__name__ and not name.startswith("_")}
    assert public and public <= defined
    program = {"columns": ["title"], "steps": [
        {"action": "EnterList", "elements": ["li"], "pagination": None},
        {"action": "SaveText", "column": "title", "element": ":scope"}, {"action": "ExitList"}]}
    done = subprocess.run(
        [sys.executable, "-c", ("import json, sys; import extract; program = json.loads(sys.argv[1]); "
         "page = '<html><body><ul><li>a</li><li>b</li></ul></body></html>'; "
         "rows = extract.run_list(program, 'p1', lambda url: (url, page), 'http://x/', 3, lambda: 'now'); "
         "print(json.dumps([row['title'] for row in rows]))"), json.dumps(program)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == ["a", "b"]
