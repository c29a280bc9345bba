"""The research agents' list and table tools try each page once per set of columns (real loopback HTTP)."""

from __future__ import annotations

from scrapesmith.collect.candidates import PageTools
from scrapesmith.web.fetch import HttpFetcher


class CountingFetcher:
    """The real HTTP fetcher, counting the fetches of each URL."""

    def __init__(self, inner: HttpFetcher) -> None:
        self.inner, self.counts = inner, {}

    def fetch(self, url: str, **kwargs):
        self.counts[url] = self.counts.get(url, 0) + 1
        return self.inner.fetch(url, **kwargs)


def test_a_page_is_tried_once_per_column_set(demo_web, allow):
    url = demo_web.url("/proceedings/clml/2022/datasets-and-benchmarks/")
    columns = ["title", "authors", "url"]
    with HttpFetcher(allow_hosts=allow, delay=0.0) as http:
        fetcher = CountingFetcher(http)
        tools = PageTools(fetcher)
        first = tools.found(url, columns)
        fetched = sum(fetcher.counts.values())
        again = tools.found(url, columns)
        assert fetched >= 2 and sum(fetcher.counts.values()) == fetched  # the second call extracts nothing again
        assert [item.kind for item in first] == [item.kind for item in again] and "list" in [i.kind for i in first]
        assert [item.rows for item in first] == [item.rows for item in again] and first[0].rows
        again.clear()
        assert tools.found(url, columns)  # callers get their own list: emptying it loses nothing
        tools.found(url, ["title"])
        assert sum(fetcher.counts.values()) > fetched  # other columns: the tools run again


def test_a_page_that_cannot_be_fetched_is_tried_again(demo_web, allow):
    missing = demo_web.url("/no-such-page/")
    with HttpFetcher(allow_hosts=allow, delay=0.0) as http:
        fetcher = CountingFetcher(http)
        tools = PageTools(fetcher)
        assert tools.found(missing, ["title"]) == [] and tools.found(missing, ["title"]) == []
    assert fetcher.counts[missing] == 2
