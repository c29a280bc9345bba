"""The library's ``Scraper``: any kind of page in, the row `scrapesmith run` writes out, the same spec file."""

from __future__ import annotations

import pytest

from scrapesmith import Scraper
from scrapesmith.induce import CompiledSpec, ScraperSpec
from scrapesmith.sites import build_sites
from scrapesmith.web import FetchError, Page


@pytest.fixture(scope="module")
def books():
    sites = build_sites(seed=7)
    pages = [sites.respond(path).body for path in sites.urls("bookshelf", kind="detail")[:6]]
    return pages, sites.truth("bookshelf")["books"]


def test_text_bytes_and_pages_give_the_rows_of_the_compiled_spec(books):
    pages, truth = books
    scraper = Scraper.from_fields([page.decode() for page in pages[:3]], {"isbn_13": "the ISBN-13 of the book"})
    expected = CompiledSpec(scraper.spec).row(pages[4].decode())
    for page in (pages[4], pages[4].decode(), Page(url="http://127.0.0.1:9/b/4", content=pages[4],
                                                   text=pages[4].decode())):
        row = scraper.extract(page)
        assert row["isbn_13"] == expected["isbn_13"] == truth[4]["isbn_13"]
        assert row["program_id"] == scraper.spec.spec_id and row["fetched_at"]


def test_a_saved_scraper_is_a_spec_the_command_line_reads(books, tmp_path):
    pages, truth = books
    scraper = Scraper.from_examples(pages[:3], {"title": truth[0]["title"]})
    spec = ScraperSpec.load(scraper.save(tmp_path / "s.json"))
    assert spec.spec_id == Scraper.load(tmp_path / "s.json").spec.spec_id and spec.profile is not None
    assert repr(scraper).endswith(": title)")


def test_a_private_address_is_refused_unless_allowed(books):
    pages, _ = books
    scraper = Scraper.from_fields(pages[:3], {"isbn_13": "the ISBN-13 of the book"})
    with pytest.raises(FetchError):
        scraper.extract("http://127.0.0.1:9/nothing-here")
