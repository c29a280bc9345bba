"""``bench collect-pages``: collect over a paginated links-only catalog of real SWDE book pages (no model)."""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import urlsplit

from scrapesmith.bench.collect_pages import Catalog, CatalogBook, cell_values, run_collect_pages, score_rows


def test_catalog_is_paginated_and_links_only(swde_dir) -> None:
    pages = sorted((swde_dir / "book" / "book-booksamillion").glob("*.htm"))[:25]
    catalog = Catalog(pages)
    first, second = catalog.bodies["/catalog/"].decode(), catalog.bodies["/catalog/page-2.html"].decode()
    assert first.count("<li><a href=\"/books/") == 20 and second.count("<li><a href=\"/books/") == 5
    assert "Next</a>" in first and "Previous</a>" in second and "Next</a>" not in second
    assert catalog.books[0].title.startswith("The Short Second Life of Bree Tanner")


def test_cells_are_compared_leniently_and_multi_values_as_sets() -> None:
    assert cell_values("Ann; Bo") == ["Ann", "Bo"] and cell_values("") == []
    book = CatalogBook("0007", "/books/0007.html", "x")
    truth = {c: {"0007": [": v"]} for c in ("title", "isbn_13", "publisher", "publication_date")}
    truth["author"] = {"0007": ["Bo", "Ann"]}
    row = {"detail_url": "http://h/books/0007.html", "title": "v", "isbn_13": "v", "publisher": "v",
           "publication_date": "wrong", "author": "Ann; Bo"}
    summary, wrong = score_rows([row], [book], truth)
    assert summary["row_recall"] == 1.0 and summary["cell_accuracy"] == 0.8
    assert wrong == [{"page": "0007", "column": "publication_date", "got": "wrong", "truth": ": v"}]


def test_collect_over_the_catalog_without_a_model(swde_dir, tmp_path) -> None:
    result = run_collect_pages(swde_dir, swde_dir / "groundtruth", None, 24, 100, None, tmp_path / "run",
                               tmp_path / "out.json")
    summary = result.summary
    assert summary["row_recall"] == 1.0 and summary["cell_accuracy"] >= 0.95 and summary["valid"]
    assert summary["llm_calls"] == 0
    rows = [json.loads(line) for line in (tmp_path / "run" / "dataset.jsonl").read_text().splitlines()]
    assert {urlsplit(row["source_url"]).path for row in rows} == {"/catalog/", "/catalog/page-2.html"}
    assert all(urlsplit(row["detail_url"]).path.startswith("/books/") for row in rows)
    assert json.loads((tmp_path / "out.json").read_text())["summary"]["pages"] == 24


def test_bad_count_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "bench", "collect-pages", "--count", "0"],
                          check=False, capture_output=True, text=True)
    assert done.returncode == 2 and "--count" in done.stderr


def test_the_catalogs_next_page_is_not_a_source_to_ask_a_model_about(swde_dir, tmp_path) -> None:
    from scrapesmith.llm.scripted import ScriptedLLM

    llm = ScriptedLLM(lambda request: '{"action": "use_links", "choice": [1]}')
    result = run_collect_pages(swde_dir, swde_dir / "groundtruth", None, 24, 0, llm, tmp_path / "run", None)
    assert llm.calls == 0 and result.summary["row_recall"] == 1.0
