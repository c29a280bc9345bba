"""A fetcher that remembers the pages of one short-lived job, so a page asked for twice is fetched once."""

from __future__ import annotations

from collections import OrderedDict

from scrapesmith.web.page import Fetcher, Page


class RememberingFetcher:
    """Wraps any :class:`Fetcher` for one short-lived job: a URL fetched again returns the page read the
    first time (the ``max_pages`` most recently used are kept). A failure is not remembered: the next fetch
    tries again. ``again`` counts the fetches it answered without the network."""

    def __init__(self, inner: Fetcher, max_pages: int = 256) -> None:
        self.inner = inner
        self.max_pages = max_pages
        self.again = 0
        self._pages: OrderedDict[str, Page] = OrderedDict()

    def fetch(self, url: str) -> Page:
        if (page := self._pages.get(url)) is not None:
            self._pages.move_to_end(url)
            self.again += 1
            return page
        page = self.inner.fetch(url)
        self._pages[url] = page
        if len(self._pages) > self.max_pages:
            self._pages.popitem(last=False)
        return page

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
