"""The demo server against malformed and hostile clients (issue 19): 400, a bounded log, idle timeouts."""

from __future__ import annotations

import socket
import time

import pytest

from scrapesmith.sites import server as server_module
from scrapesmith.sites.server import RequestLog


def _exchange(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        return answer


@pytest.mark.parametrize("length", [b"abc", b"-1", b"99999999999"])
def test_a_malformed_content_length_is_answered_400_and_the_server_goes_on(demo_web, length):
    answer = _exchange(demo_web.port, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert _exchange(demo_web.port, b"GET /robots.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") \
        .startswith(b"HTTP/1.1 200 ")


def test_the_request_log_is_bounded_and_cuts_long_targets():
    log = RequestLog(max_entries=100)
    for index in range(1_500):
        log.append((float(index), "GET", "/" + "x" * 100_000))
    assert len(log) == 100
    assert log[0][0] == 1_400.0
    assert all(len(target) == server_module.LOG_TARGET_CHARS for _, _, target in log)


def test_an_idle_connection_is_closed(monkeypatch):
    monkeypatch.setattr(server_module._Handler, "timeout", 0.5)
    with server_module.serve_sites() as web, socket.create_connection(("127.0.0.1", web.port), timeout=10) as idle:
        started = time.monotonic()
        assert idle.recv(1) == b""  # the server hung up on us
        assert time.monotonic() - started < 8
