"""Fixtures for list extraction: the demo web, a mutable local site, and fetch runtimes over them.

Everything is served on 127.0.0.1 by real HTTP servers started on port 0; nothing is mocked.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scrapesmith.lists.service import RuntimeFactory, http_runtimes
from scrapesmith.sites import DemoServer
from scrapesmith.web.fetch import HttpFetcher


@pytest.fixture()
def demo_runtimes(demo_web: DemoServer) -> Iterator[RuntimeFactory]:
    with HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0.0) as fetcher:
        yield http_runtimes(fetcher)


class MutableSite:
    """A tiny site whose pages a test can change between recording and replay."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.requests: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.requests.append(self.path)
                if self.path == "/robots.txt":
                    body, status = "User-agent: *\nAllow: /\n", 200
                else:
                    body = site.pages.get(self.path)
                    status = 200 if body is not None else 404
                    body = body if body is not None else "<html><body>not found</body></html>"
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host, self.port = self.server.server_address[:2]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"


@pytest.fixture()
def mutable_site() -> Iterator[MutableSite]:
    site = MutableSite()
    site.thread.start()
    yield site
    site.server.shutdown()
    site.server.server_close()


@pytest.fixture()
def site_runtimes(mutable_site: MutableSite) -> Iterator[RuntimeFactory]:
    with HttpFetcher(allow_hosts=[f"{mutable_site.host}:{mutable_site.port}"], delay=0.0) as fetcher:
        yield http_runtimes(fetcher)
