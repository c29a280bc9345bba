"""``bench collect-pages``: collect over a catalog of real detail pages, scored cell by cell.

The failure this measures (issue 13): a listing that only links to detail pages, the fields on those
pages. The benchmark takes ``count`` real SWDE detail pages of one site (from ``offset``), serves them on
127.0.0.1 behind a paginated, links-only catalog (each link's text is the page's ``<title>``, as
catalogs name what they link to), runs ``collect`` with the instruction below and scores the dataset
against the SWDE ground truth: *row recall* (detail pages with a row) and *cell accuracy* (cells equal to
the truth after the lenient SWDE normalisation; a multi-valued cell is compared as a set of values).
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapesmith.bench.frame import BenchResult, report
from scrapesmith.bench.metrics import value_set
from scrapesmith.bench.swde import SwdeSite, discover_sites, load_groundtruth, read_page
from scrapesmith.collect import CollectResult, collect
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import read_rows
from scrapesmith.lists import MULTI_SEPARATOR
from scrapesmith.llm import LLM

INSTRUCTION = ("Collect every book listed in the catalog at {url} with columns title, author, isbn_13, "
               "publisher and publication_date")
COLUMNS = ("title", "author", "isbn_13", "publisher", "publication_date")
PER_PAGE = 20
CASE_ROWS = 10


@dataclass(frozen=True)
class CatalogBook:
    page_id: str
    path: str
    title: str


class Catalog:
    """The served site: ``/catalog/`` (then ``/catalog/page-N.html``) linking to ``/books/<id>.html``."""

    def __init__(self, pages: Sequence[Path], per_page: int = PER_PAGE) -> None:
        self.bodies: dict[str, bytes] = {}
        self.books: list[CatalogBook] = []
        for path in pages:
            text = read_page(path)
            book = CatalogBook(path.stem, f"/books/{path.stem}.html", _page_title(text) or path.stem)
            self.books.append(book)
            self.bodies[book.path] = text.encode("utf-8")
        chunks = [self.books[i:i + per_page] for i in range(0, len(self.books), per_page)] or [[]]
        for number, chunk in enumerate(chunks, start=1):
            self.bodies[self.page_path(number)] = self._catalog_page(number, len(chunks), chunk).encode("utf-8")

    @staticmethod
    def page_path(number: int) -> str:
        return "/catalog/" if number == 1 else f"/catalog/page-{number}.html"

    def _catalog_page(self, number: int, total: int, books: list[CatalogBook]) -> str:
        items = "\n".join(f'<li><a href="{b.path}">{html.escape(b.title)}</a></li>' for b in books)
        pager = []
        if number > 1:
            pager.append(f'<a href="{self.page_path(number - 1)}">Previous</a>')
        pager.append(f"<span>Page {number} of {total}</span>")
        if number < total:
            pager.append(f'<a href="{self.page_path(number + 1)}">Next</a>')
        return (f"<!DOCTYPE html><html><head><title>Book catalog, page {number}</title></head><body>"
                f"<h1>Book catalog</h1><ul class=\"books\">\n{items}\n</ul>"
                f"<p class=\"pager\">{' '.join(pager)}</p></body></html>")


def _page_title(text: str) -> str:
    start = text.lower().find("<title>")
    end = text.lower().find("</title>", start)
    if start < 0 or end < 0:
        return ""
    return " ".join(html.unescape(text[start + 7:end]).split())


@contextmanager
def serve_catalog(catalog: Catalog) -> Iterator[str]:
    """Serve ``catalog`` on 127.0.0.1 (a free port); yields the base URL."""
    bodies = catalog.bodies

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            body = b"User-agent: *\nAllow: /\n" if path == "/robots.txt" else bodies.get(path)
            status = 200 if body is not None else 404
            data = body if body is not None else b"<html><body>not found</body></html>"
            self.send_response(status)
            self.send_header("Content-Type", "text/plain" if path == "/robots.txt" else "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def cell_values(value: Any) -> list[str]:
    """A dataset cell as values: a multi-valued cell holds them joined by the detail pass's separator."""
    if isinstance(value, list):
        return [str(v) for v in value]
    text = str(value or "")
    return [part for part in text.split(MULTI_SEPARATOR) if part.strip()] if text.strip() else []


def score_rows(rows: list[dict[str, Any]], books: Sequence[CatalogBook],
               truth: dict[str, dict[str, list[str]]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Row recall, cell accuracy overall and per column, and the first wrong cells (for a person to read)."""
    by_path: dict[str, dict[str, Any]] = {}
    for row in rows:
        for key in ("detail_url", "source_url", "url"):
            path = urlsplit(str(row.get(key) or "")).path
            if path.startswith("/books/"):
                by_path.setdefault(path, row)
                break
    right = {c: 0 for c in COLUMNS}
    wrong: list[dict[str, Any]] = []
    for book in books:
        row = by_path.get(book.path, {})
        for column in COLUMNS:
            gold = value_set(truth[column].get(book.page_id, []), lenient=True)
            got = value_set(cell_values(row.get(column)), lenient=True)
            if got == gold:
                right[column] += 1
            elif len(wrong) < CASE_ROWS:
                wrong.append({"page": book.page_id, "column": column, "got": str(row.get(column, ""))[:60],
                              "truth": "; ".join(truth[column].get(book.page_id, []))[:60]})
    total = len(books) or 1
    summary: dict[str, Any] = {
        "pages": len(books), "rows": len(rows), "row_recall": round(len(by_path) / total, 4),
        "cell_accuracy": round(sum(right.values()) / (total * len(COLUMNS)), 4),
        **{f"accuracy_{c}": round(right[c] / total, 4) for c in COLUMNS},
    }
    return summary, wrong


def choose_pages(site: SwdeSite, count: int, offset: int) -> list[Path]:
    paths = site.page_paths()[offset:offset + count]
    if not paths:
        raise ScrapesmithError(f"{site.key}: no pages at offset {offset} (it has {len(site.page_paths())})")
    return paths


def choose_site(pages: Path, site: str | None) -> SwdeSite:
    """The named site, which must be a book site; without a name, the book site with the most pages."""
    if site:
        chosen = discover_sites(pages, [site])[0]
        if chosen.vertical != "book":
            raise ScrapesmithError(f"collect-pages needs a book site (got {chosen.key})")
        return chosen
    books = [s for s in discover_sites(pages) if s.vertical == "book"]
    if not books:
        raise ScrapesmithError(f"collect-pages needs a book site and {pages} has none")
    return max(books, key=lambda s: len(s.page_paths()))


def run_collect_pages(pages: Path, groundtruth: Path, site: str | None, count: int, offset: int, llm: LLM | None,
                      run_dir: Path, json_out: Path | None,
                      progress: Callable[[str, str, int], None] | None = None) -> BenchResult:
    """The whole ``bench collect-pages`` run: build and serve the catalog, collect, score, report."""
    chosen = choose_site(pages, site)
    truth = {c: load_groundtruth(groundtruth / chosen.vertical / f"{chosen.key}-{c}.txt") for c in COLUMNS}
    catalog = Catalog(choose_pages(chosen, count, offset))
    started = time.monotonic()
    with serve_catalog(catalog) as base:
        instruction = INSTRUCTION.format(url=base + Catalog.page_path(1))
        host = urlsplit(base).netloc
        outcome: CollectResult = collect(instruction, llm=llm, run_dir=run_dir, allow_hosts=[host], delay=0,
                                         progress=progress)
    dataset = run_dir / "dataset.jsonl"
    rows = read_rows(dataset) if dataset.is_file() else []
    summary, wrong = score_rows(rows, catalog.books, truth)
    summary.update(valid=outcome.valid, llm_calls=outcome.llm_calls,
                   tokens=outcome.input_tokens + outcome.output_tokens,
                   seconds=round(time.monotonic() - started, 1))
    result = BenchResult(name="collect-pages", summary=summary, cases=wrong,
                         params={"site": chosen.key, "count": count, "offset": offset, "llm": getattr(llm, "name", "none"),
                                 "instruction": INSTRUCTION, "run_dir": str(run_dir)})
    report(result, json_out, case_columns=["page", "column", "got", "truth"])
    return result
