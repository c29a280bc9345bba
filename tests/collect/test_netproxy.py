"""The sandbox's network: the run's guard proxy on a Unix socket, used through HttpFetcher(proxy=...)."""

from __future__ import annotations

import pytest

from scrapesmith.collect.netproxy import NetworkGate
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import BlockedAddress


def test_many_fetches_through_the_proxy_all_succeed_without_retries(demo_web, allow):
    with NetworkGate(allow) as gate, HttpFetcher(allow_hosts=[], delay=0, timeout=5, retries=0,
                                                 proxy=f"unix:{gate.socket_path}") as fetcher:
        pages = [fetcher.fetch(demo_web.url(path)) for _ in range(15)
                 for path in ("/sports/season/2024/standings.html", "/proceedings/")]
    assert all(page.status == 200 for page in pages)


def test_the_proxy_allows_exactly_the_runs_hosts(demo_web, allow):
    with NetworkGate(allow) as gate, HttpFetcher(allow_hosts=[], delay=0, timeout=5, retries=0,
                                                 proxy=f"unix:{gate.socket_path}") as fetcher:
        for url in (f"http://127.0.0.1:{demo_web.port + 1 if demo_web.port < 65535 else 1}/",
                    "http://169.254.169.254/latest/meta-data/", "https://127.0.0.1:9/"):
            with pytest.raises(BlockedAddress, match="not allowed for this run|refused"):
                fetcher.fetch(url)
        assert len(gate.refusals) >= 3
