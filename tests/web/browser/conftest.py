"""Fixtures for the browser runtime's tests: one shared Chromium and a small trap server.

Every test drives the real Chromium at /usr/bin/chromium against servers on 127.0.0.1. One browser is
shared by the whole session to keep the suite fast; tests that break browsers on purpose start their own.
At the end of the session no Chromium process started by this test process may remain.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer

import psutil
import pytest
from browser_helpers import FAST, TrapHandler, local_policy, our_chromium_processes

from scrapesmith.web.browser import BrowserRuntime, BrowserSession
from scrapesmith.web.browser.process import REGISTRY, process_tree


@pytest.fixture(scope="session")
def trap_url() -> Iterator[str]:
    """A server on 127.0.0.1 with pages that redirect or link into a private network, and odd pages."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), TrapHandler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def runtime() -> Iterator[BrowserRuntime]:
    """The browser shared by the session; on teardown it must leave no Chromium process behind."""
    shared = BrowserRuntime(FAST, local_policy()).start()
    yield shared
    shared.close()
    others = {p.pid for pid in REGISTRY.live_pids() for p in process_tree(pid)}  # other tests' live browsers
    leftovers = [p for p in our_chromium_processes()
                 if p.pid not in others and p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not leftovers, f"Chromium processes left after the session: {[p.pid for p in leftovers]}"


@pytest.fixture
def session(runtime: BrowserRuntime) -> Iterator[BrowserSession]:
    with BrowserSession(runtime) as opened:
        yield opened
