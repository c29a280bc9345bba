"""How much does safe, polite fetching cost? ``HttpFetcher`` against a bare ``httpx.Client`` loop.

Both clients fetch the same documents of the local demo web (served on 127.0.0.1 by
:func:`scrapesmith.bench.sites.serve_sites`), sequentially, in the same run, with politeness off
(no delay). ``HttpFetcher`` still does everything else it always does: address guard, robots.txt (once
with, once without), throttle bookkeeping, retries wrapper, size cap, content-type check and charset
detection. Each mode runs ``rounds`` times in interleaved order and the median round counts, so a noisy
neighbour on a shared machine does not decide the ratio.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx

from scrapesmith.bench.frame import BenchResult
from scrapesmith.bench.sites import DemoServer, serve_sites
from scrapesmith.config import get_settings
from scrapesmith.web.fetch import DEFAULT_ACCEPT_TYPES, HttpFetcher, accepts
from scrapesmith.web.safety import RobotsPolicy

MODES = ("bare_httpx", "fetcher_robots", "fetcher_no_robots")


@dataclass(frozen=True)
class Round:
    mode: str
    round: int
    pages: int
    seconds: float

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0


def document_urls(server: DemoServer, pages: int) -> list[str]:
    """``pages`` URLs of documents the fetcher may fetch (HTML, JSON, text; allowed by robots.txt),
    repeating the site if needed."""
    robots_txt = server.sites.respond("/robots.txt")
    robots = RobotsPolicy(get_settings().user_agent, lambda url: (robots_txt.status, robots_txt.body.decode()))
    paths = sorted(
        path
        for path in server.sites.urls()
        if accepts(DEFAULT_ACCEPT_TYPES, server.sites.pages[path].content_type.split(";")[0].strip())
        and robots.allowed(server.url(path))
    )
    return [server.url(paths[i % len(paths)]) for i in range(pages)]


def bare_httpx(urls: list[str]) -> int:
    """The baseline: one keep-alive client, GET, check the status, decode the text."""
    with httpx.Client(timeout=20.0) as client:
        for url in urls:
            response = client.get(url)
            response.raise_for_status()
            _ = response.text
    return len(urls)


def with_fetcher(host: str, respect_robots: bool) -> Callable[[list[str]], int]:
    def run(urls: list[str]) -> int:
        with HttpFetcher(allow_hosts=[host], delay=0.0, respect_robots=respect_robots, retries=0) as fetcher:
            for url in urls:
                fetcher.fetch(url)
        return len(urls)

    return run


def run_rounds(urls: list[str], host: str, rounds: int) -> Iterator[Round]:
    runners = {
        "bare_httpx": bare_httpx,
        "fetcher_robots": with_fetcher(host, respect_robots=True),
        "fetcher_no_robots": with_fetcher(host, respect_robots=False),
    }
    for runner in runners.values():  # warm-up: imports, sockets, server caches
        runner(urls[:20])
    for number in range(1, rounds + 1):
        order = MODES if number % 2 else tuple(reversed(MODES))
        for mode in order:
            started = time.perf_counter()
            fetched = runners[mode](urls)
            yield Round(mode, number, fetched, time.perf_counter() - started)


def median_rate(rounds: list[Round], mode: str) -> float:
    return statistics.median(r.pages_per_s for r in rounds if r.mode == mode)


def bench_fetch(pages: int = 300, rounds: int = 3, on_round: Callable[[Round], None] | None = None) -> BenchResult:
    """Run the comparison and return the benchmark result (``pages_per_s`` is the default fetcher)."""
    started = time.perf_counter()
    with serve_sites() as server:
        urls = document_urls(server, pages)
        host = f"{server.host}:{server.port}"
        results: list[Round] = []
        for result in run_rounds(urls, host, rounds):
            results.append(result)
            if on_round is not None:
                on_round(result)
    bare = median_rate(results, "bare_httpx")
    robots = median_rate(results, "fetcher_robots")
    no_robots = median_rate(results, "fetcher_no_robots")
    return BenchResult(
        name="fetch",
        summary={
            "pages_per_s": round(robots, 1),
            "bare_pages_per_s": round(bare, 1),
            "ratio": round(robots / bare, 3),
            "no_robots_pages_per_s": round(no_robots, 1),
            "no_robots_ratio": round(no_robots / bare, 3),
            "pages": pages,
            "seconds": round(time.perf_counter() - started, 2),
        },
        cases=[
            {"mode": r.mode, "round": r.round, "pages": r.pages, "seconds": round(r.seconds, 3),
             "pages_per_s": round(r.pages_per_s, 1)}
            for r in results
        ],
        params={"pages": pages, "rounds": rounds, "delay": 0.0, "sequential": True, "source": "bench.sites"},
    )
