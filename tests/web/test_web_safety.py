"""AddressGuard, RobotsPolicy and HostThrottle on their own, as the browser runtime will use them."""

from __future__ import annotations

import itertools
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from scrapesmith.web.page import BlockedAddress, Unreachable
from scrapesmith.web.safety import AddressGuard, HostThrottle, RobotsPolicy, is_public_address, origin_of


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://10.1.2.3/",
        "http://192.168.0.10:8080/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://0.0.0.0/",
        "http://224.0.0.1/",
        "http://[::ffff:127.0.0.1]/",
        "http://100.64.0.1/",
    ],
)
def test_non_public_addresses_are_blocked(url):
    with pytest.raises(BlockedAddress):
        AddressGuard().check(url)


def test_public_address_passes():
    """The guard hands back the address it checked: the one a fetcher then connects to, and no other."""
    assert AddressGuard().check("https://93.184.215.14/page") == ["93.184.215.14"]
    assert AddressGuard().check("http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/") == [
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
    public = AddressGuard(resolver=lambda host, port: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"])
    assert public.check("https://public.example/page") == ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]


@pytest.mark.parametrize("url", ["ftp://example.org/file", "javascript:alert(1)", "file:///etc/passwd", "/relative"])
def test_unhandled_schemes_are_blocked(url):
    with pytest.raises(BlockedAddress, match="scheme"):
        AddressGuard().check(url)


def test_host_names_are_checked_by_what_they_resolve_to():
    names = {"intranet.example": ["10.0.0.5"], "public.example": ["93.184.215.14"]}
    guard = AddressGuard(resolver=lambda host, port: names[host])
    guard.check("http://public.example/")
    with pytest.raises(BlockedAddress, match="10.0.0.5"):
        guard.check("http://intranet.example/")


def test_a_name_with_any_private_address_is_blocked():
    guard = AddressGuard(resolver=lambda host, port: ["93.184.215.14", "192.168.1.1"])
    with pytest.raises(BlockedAddress):
        guard.check("http://mixed.example/")


def test_unresolvable_host_is_unreachable():
    def no_such_host(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(Unreachable, match="cannot resolve"):
        AddressGuard(resolver=no_such_host).check("http://nowhere.example/")


def test_localhost_resolves_to_loopback_and_is_blocked():
    with pytest.raises(BlockedAddress):
        AddressGuard().check("http://localhost:9/")


def test_allow_hosts_by_host_or_host_and_port():
    AddressGuard(allow_hosts=["127.0.0.1"]).check("http://127.0.0.1:8123/")
    AddressGuard(allow_hosts=["LOCALHOST:8123"]).check("http://localhost:8123/")
    with pytest.raises(BlockedAddress):
        AddressGuard(allow_hosts=["localhost:8123"]).check("http://localhost:8124/")
    AddressGuard(allow_private=True).check("http://10.0.0.1/")


def test_is_public_address():
    assert is_public_address("8.8.8.8") and not is_public_address("fe80::1%eth0")


def test_origin_fills_default_ports():
    assert str(origin_of("https://Example.org/a?b")) == "https://example.org:443"
    assert origin_of("http://example.org/").robots_url == "http://example.org:80/robots.txt"


class RobotsServer:
    """A robots.txt source (status, body) per origin, counting how often each was asked for."""

    def __init__(self, answers: dict[str, tuple[int, str] | None]) -> None:
        self.answers = answers
        self.calls: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, robots_url: str) -> tuple[int, str] | None:
        with self.lock:
            self.calls.append(robots_url)
        time.sleep(0.02)
        return self.answers[robots_url]


def test_robots_rules_per_user_agent_and_crawl_delay():
    rules = "User-agent: scrapesmith\nDisallow: /no/\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\n"
    source = RobotsServer({"http://a.example:80/robots.txt": (200, rules)})
    policy = RobotsPolicy("scrapesmith/0.1 (+https://example.invalid)", source)
    assert policy.allowed("http://a.example/yes")
    assert not policy.allowed("http://a.example/no/x")
    assert policy.crawl_delay("http://a.example/") == 3.0
    assert not RobotsPolicy("otherbot/1.0", source).allowed("http://a.example/yes")


def test_robots_status_rules_follow_rfc_9309():
    source = RobotsServer(
        {
            "http://gone.example:80/robots.txt": (404, ""),
            "http://down.example:80/robots.txt": (500, ""),
            "http://dark.example:80/robots.txt": None,
        }
    )
    policy = RobotsPolicy("bot", source)
    assert policy.allowed("http://gone.example/anything")
    assert not policy.allowed("http://down.example/anything")
    assert not policy.allowed("http://dark.example/anything")
    assert policy.server_unreachable("http://dark.example/") and not policy.server_unreachable("http://down.example/")


def test_robots_fetched_once_per_origin_under_concurrency():
    source = RobotsServer({"http://a.example:80/robots.txt": (200, ""), "https://a.example:443/robots.txt": (404, "")})
    policy = RobotsPolicy("bot", source)
    urls = [f"http://a.example/{n}" for n in range(20)] + [f"https://a.example/{n}" for n in range(20)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(policy.allowed, urls))
    assert sorted(source.calls) == ["http://a.example:80/robots.txt", "https://a.example:443/robots.txt"]


def test_throttle_spaces_starts_and_caps_concurrency():
    throttle = HostThrottle(delay=0.1, max_per_host=2)
    starts: list[float] = []
    active = 0
    peak = 0
    lock = threading.Lock()

    def request(n: int) -> None:
        nonlocal active, peak
        with throttle.slot(f"http://a.example/{n}"):
            with lock:
                starts.append(time.monotonic())
                active += 1
                peak = max(peak, active)
            time.sleep(0.15)
            with lock:
                active -= 1

    with ThreadPoolExecutor(max_workers=5) as pool:
        list(pool.map(request, range(5)))
    starts.sort()
    assert peak == 2
    assert starts[-1] - starts[0] >= 4 * 0.1 * 0.85
    assert min(b - a for a, b in itertools.pairwise(starts)) >= 0.04


def test_throttle_keeps_origins_independent():
    throttle = HostThrottle(delay=5.0, max_per_host=1)
    started = time.monotonic()
    for host in ("a", "b", "c"):
        with throttle.slot(f"http://{host}.example/"):
            pass
    assert time.monotonic() - started < 1.0
