"""The guard proxy reads a request target once and strictly: what it checks is where it connects."""

from __future__ import annotations

import pytest

from scrapesmith.web.browser.proxy import Target, parse_target


@pytest.mark.parametrize(("method", "target", "expected"), [
    ("CONNECT", "example.org:443", Target("CONNECT", "https://example.org:443/", 443, "")),
    ("CONNECT", "[::1]:8443", Target("CONNECT", "https://[::1]:8443/", 8443, "")),
    ("CONNECT", "127.0.0.1:80", Target("CONNECT", "http://127.0.0.1:80/", 80, "")),
    ("GET", "http://example.org/", Target("GET", "http://example.org/", 80, "/")),
    ("GET", "http://example.org", Target("GET", "http://example.org", 80, "/")),
    ("POST", "http://127.0.0.1:8000/@user/a?b=c&d=%20", Target("POST", "http://127.0.0.1:8000/@user/a?b=c&d=%20",
                                                                8000, "/@user/a?b=c&d=%20")),
    ("GET", "http://[::1]:8000/x", Target("GET", "http://[::1]:8000/x", 8000, "/x")),
])
def test_plain_targets_browsers_send_are_read_once(method, target, expected):
    assert parse_target(method, target) == expected


@pytest.mark.parametrize(("method", "target"), [
    ("CONNECT", "127.0.0.1:8000/x:9000"), ("CONNECT", "127.0.0.1:8000?:9000"), ("CONNECT", "127.0.0.1:8000#:9000"),
    ("CONNECT", "a@127.0.0.1:9000"), ("CONNECT", "127.0.0.1"), ("CONNECT", "127.0.0.1:0"),
    ("CONNECT", "127.0.0.1:70000"), ("CONNECT", "http://127.0.0.1:80/"),
    ("GET", "http://user:pw@127.0.0.1:9000/"), ("GET", "http://127.0.0.1:8000/x#:9000"),
    ("GET", "http://127.0.0.1:8000\\@127.0.0.1:9000/"), ("GET", "http://127.0.0.1:8000/a b"),
    ("GET", "http://127.0.0.1:8000/\x00"), ("GET", "http://exämple.org/"), ("GET", "https://example.org/"),
    ("GET", "/relative"), ("G ET", "http://example.org/"), ("get\r", "http://example.org/"),
])
def test_anything_else_is_refused(method, target):
    assert parse_target(method, target) is None
