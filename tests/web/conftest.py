"""Fixtures for the web layer's tests: local servers (see ``fetch_test_server``) and fetchers allowed onto them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from fetch_test_server import SiteServer

from scrapesmith.web.fetch import HttpFetcher


@pytest.fixture
def serve() -> Iterator[Callable[[], SiteServer]]:
    """Start as many local servers as a test needs; all are stopped afterwards."""
    servers: list[SiteServer] = []

    def start() -> SiteServer:
        server = SiteServer()
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def site(serve: Callable[[], SiteServer]) -> SiteServer:
    return serve()


@pytest.fixture
def make_fetcher(site: SiteServer) -> Iterator[Callable[..., HttpFetcher]]:
    """HttpFetchers allowed onto the local site, impolite by default so tests stay fast."""
    fetchers: list[HttpFetcher] = []

    def make(**overrides: object) -> HttpFetcher:
        options: dict[str, object] = {
            "allow_hosts": [site.host_port], "delay": 0.0, "backoff": 0.05, "timeout": 5.0,
        }
        options.update(overrides)
        fetcher = HttpFetcher(**options)  # type: ignore[arg-type]
        fetchers.append(fetcher)
        return fetcher

    yield make
    for fetcher in fetchers:
        fetcher.close()
