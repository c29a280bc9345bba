"""One engine everywhere: ``collect`` (through the lists detail pass) and ``induce`` give the same fields on the
same real detail pages, served over real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from urllib.parse import urlsplit

from scrapesmith.bench.collect_pages import COLUMNS, Catalog, cell_values, serve_catalog
from scrapesmith.collect.service import collect
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.lists.detail import DETAIL_SEEDS, field_request


def test_collect_and_induce_give_the_same_fields_on_the_same_book_pages(swde_dir, tmp_path) -> None:
    pages = sorted((swde_dir / "book" / "book-amazon").glob("*.htm"))
    catalog = Catalog(pages)
    with serve_catalog(catalog) as base:
        instruction = (f"Collect every book listed in the catalog at {base}/catalog/ with columns "
                       + ", ".join(COLUMNS))
        collect(instruction, llm=None, run_dir=tmp_path / "run", allow_hosts=[urlsplit(base).netloc], delay=0)
    rows = [json.loads(line) for line in (tmp_path / "run" / "dataset.jsonl").read_text().splitlines()]
    by_page = {urlsplit(row["detail_url"]).path.rsplit("/", 1)[-1].removesuffix(".html"): row for row in rows}
    assert sorted(by_page) == [p.stem for p in pages]

    texts = [p.read_text(encoding="utf-8", errors="replace") for p in pages]
    trees = [parse_for_replay(text) for text in texts[:DETAIL_SEEDS]]
    as_asked = {  # the detail pass's own requests, the command line's ``--field NAME``, the benchmark's prompt
        "detail pass": [field_request(c) for c in COLUMNS],
        "--field": [FieldRequest(c, c.replace("_", " ")) for c in COLUMNS],
        "instruction": [FieldRequest(c, f"Please extract the {c.replace('_', ' ')} of the book.") for c in COLUMNS],
    }
    for requests in as_asked.values():
        compiled = CompiledSpec(induce_scraper(requests, trees, method="heuristic"))
        for page, text in zip(pages, texts, strict=True):
            induced = compiled.row(text)
            collected = by_page[page.stem]
            for column in COLUMNS:
                value = induced[column]  # the detail pass joins a list's values with MULTI_SEPARATOR
                if isinstance(value, list):
                    assert cell_values(collected[column]) == value
                else:
                    assert collected[column] == value
    assert all(row["publication_date"] for row in rows)  # empty on every row before: the engines disagreed


def test_collect_takes_an_example_for_a_column_of_the_items_pages(swde_dir, tmp_path) -> None:
    """A user who wants the publisher as the page prints it, date and all, says so with one example."""
    pages = sorted((swde_dir / "book" / "book-amazon").glob("*.htm"))[:5]
    printed = [re.search(r"<b>Publisher:</b>([^<]+)</li>", p.read_text(encoding="utf-8", errors="replace"))
               .group(1).strip() for p in pages]
    with serve_catalog(Catalog(pages)) as base:
        collect(f"Collect every book listed in the catalog at {base}/catalog/ with columns title, publisher",
                llm=None, run_dir=tmp_path / "run", allow_hosts=[urlsplit(base).netloc], delay=0,
                examples={"publisher": printed[0]})
    rows = [json.loads(line) for line in (tmp_path / "run" / "dataset.jsonl").read_text().splitlines()]
    assert sorted(row["publisher"] for row in rows) == sorted(printed)


def test_a_bad_example_for_collect_is_a_usage_error() -> None:
    instruction = "books at http://127.0.0.1:9/ with columns title"
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "collect", instruction, "--llm", "none",
                           "--example", "title"],
                          check=False, capture_output=True, text=True)
    assert done.returncode == 2 and "NAME=VALUE" in done.stderr, done.stderr
