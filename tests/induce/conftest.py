"""Fixtures for induction tests: the demo web served on 127.0.0.1 and its book detail pages fetched over HTTP."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scrapesmith.sites.server import DemoServer
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import Page


@dataclass
class BookLayout:
    """One demo book site: its detail pages (fetched over HTTP) and their ground truth records."""

    name: str
    urls: list[str]
    pages: list[Page]
    truth: dict[str, dict]


@pytest.fixture(scope="session")
def book_layouts(demo_web: DemoServer) -> dict[str, BookLayout]:
    """Eight detail pages of each book layout, fetched through the real HTTP fetcher."""
    fetcher = HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0, retries=0)
    layouts = {}
    try:
        for name in ("bookshelf", "pagecraft"):
            paths = sorted(demo_web.sites.urls(name, "detail"))[:8]
            urls = [demo_web.url(p) for p in paths]
            records = {b["url"]: b for b in demo_web.sites.truth(name)["books"]}
            layouts[name] = BookLayout(
                name, urls, [fetcher.fetch(u) for u in urls], {demo_web.url(p): records[p] for p in paths}
            )
    finally:
        fetcher.close()
    return layouts
