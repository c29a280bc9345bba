"""The sandbox's network: the run's guard proxy on a Unix socket, used through HttpFetcher(proxy=...)."""

from __future__ import annotations

import os
import selectors
import socket
import time

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


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_run_holding_thousands_of_connections_does_not_take_the_callers_descriptors():
    """Issue 43: ~20,000 connections to the proxy's socket ran the caller out of descriptors. The proxy
    serves a run's first MAX_CONNECTIONS at once and closes the rest unanswered."""
    from scrapesmith.collect import netproxy

    most = getattr(netproxy, "MAX_CONNECTIONS", 64)
    with NetworkGate([]) as gate, selectors.DefaultSelector() as selector:
        before = _open_descriptors()
        held = []
        try:
            for _ in range(600):
                conn = socket.socket(socket.AF_UNIX)
                conn.connect(str(gate.socket_path))
                held.append(conn)
                selector.register(conn, selectors.EVENT_READ)
            closed = 0  # the proxy closes a connection past its cap at once: it reads EOF
            deadline = time.monotonic() + 10
            while closed < len(held) - most and time.monotonic() < deadline:
                for key, _events in selector.select(timeout=0.5):
                    if key.fileobj.recv(1) == b"":
                        selector.unregister(key.fileobj)
                        closed += 1
            grown = _open_descriptors() - before - len(held) - 1  # the caller's own (the selector: 1)
        finally:
            for conn in held:
                conn.close()
    assert len(held) - closed <= most
    assert grown <= most + 20, grown
    assert any("connections past" in refusal.message for refusal in gate.refusals)
