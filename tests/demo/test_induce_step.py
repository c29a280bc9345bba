"""The demo's induction step: both demo book layouts induced from three seeds and replayed exactly."""

from __future__ import annotations

from rich.console import Console

from scrapesmith.demo.context import DemoContext
from scrapesmith.demo.induce_step import induce_book_scrapers
from scrapesmith.web.fetch import HttpFetcher


def test_induction_step_replays_both_layouts_exactly(demo_web, tmp_path):
    fetcher = HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0, retries=0)
    try:
        accuracy = induce_book_scrapers(DemoContext(demo_web, fetcher, tmp_path, Console(record=True, width=200)))
    finally:
        fetcher.close()
    assert accuracy == {"bookshelf": 1.0, "pagecraft": 1.0}
    assert (tmp_path / "spec-bookshelf.json").is_file() and (tmp_path / "books-pagecraft.csv").is_file()
