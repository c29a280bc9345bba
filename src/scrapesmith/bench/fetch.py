"""How much does safe, polite fetching cost? ``HttpFetcher`` against a bare ``httpx.Client`` loop.

Both clients fetch the same documents of the local demo web (served on 127.0.0.1 by
:func:`scrapesmith.sites.serve_sites`), sequentially, in the same run, with politeness off
(no delay). ``HttpFetcher`` still does everything else it always does: address guard, robots.txt (once
with, once without), throttle bookkeeping, retries wrapper, size cap, content-type check and charset
detection. The modes take turns on small blocks of URLs (see :func:`run_rounds`) and each mode's rate is
its pages over its summed time, so a noisy neighbour on a shared machine hits all modes alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import httpx

from scrapesmith.bench.frame import BenchResult
from scrapesmith.config import get_settings
from scrapesmith.sites import DemoServer, serve_sites
from scrapesmith.web import DEFAULT_ACCEPT_TYPES, HttpFetcher, RobotsPolicy, accepts

MODES = ("bare_httpx", "fetcher_robots", "fetcher_no_robots")
BLOCK = 25
Runner = Callable[[list[str]], None]


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


def bare_loop(client: httpx.Client, urls: list[str]) -> None:
    """The baseline: GET, check the status, decode the text."""
    for url in urls:
        response = client.get(url)
        response.raise_for_status()
        _ = response.text


def fetcher_loop(fetcher: HttpFetcher, urls: list[str]) -> None:
    for url in urls:
        fetcher.fetch(url)


@contextmanager
def clients(host: str) -> Iterator[dict[str, Runner]]:
    """One long-lived client per mode (keep-alive for all), as a real crawl would hold them."""
    with (
        httpx.Client(timeout=20.0) as bare,
        HttpFetcher(allow_hosts=[host], delay=0.0, respect_robots=True, retries=0) as polite,
        HttpFetcher(allow_hosts=[host], delay=0.0, respect_robots=False, retries=0) as plain,
    ):
        yield {
            "bare_httpx": partial(bare_loop, bare),
            "fetcher_robots": partial(fetcher_loop, polite),
            "fetcher_no_robots": partial(fetcher_loop, plain),
        }


def run_rounds(urls: list[str], runners: dict[str, Runner], rounds: int) -> Iterator[Round]:
    """Each round fetches ``urls`` once per mode, block by block, rotating which mode goes first.

    Interleaving small blocks exposes every mode to the same moments of machine load, which matters on a
    shared 2-core machine far more than any difference between the clients.
    """
    for runner in runners.values():  # warm-up: connections, robots.txt, server caches
        runner(urls[:BLOCK])
    for number in range(1, rounds + 1):
        seconds = dict.fromkeys(MODES, 0.0)
        for index, start in enumerate(range(0, len(urls), BLOCK)):
            block = urls[start : start + BLOCK]
            shift = index % len(MODES)
            for mode in MODES[shift:] + MODES[:shift]:
                began = time.perf_counter()
                runners[mode](block)
                seconds[mode] += time.perf_counter() - began
        for mode in MODES:
            yield Round(mode, number, len(urls), seconds[mode])


def overall_rate(rounds: list[Round], mode: str) -> float:
    mine = [r for r in rounds if r.mode == mode]
    return sum(r.pages for r in mine) / sum(r.seconds for r in mine)


def bench_fetch(pages: int = 300, rounds: int = 3, on_round: Callable[[Round], None] | None = None) -> BenchResult:
    """Run the comparison and return the benchmark result (``pages_per_s`` is the default fetcher)."""
    started = time.perf_counter()
    with serve_sites() as server:
        urls = document_urls(server, pages)
        results: list[Round] = []
        with clients(f"{server.host}:{server.port}") as runners:
            for result in run_rounds(urls, runners, rounds):
                results.append(result)
                if on_round is not None:
                    on_round(result)
    bare = overall_rate(results, "bare_httpx")
    robots = overall_rate(results, "fetcher_robots")
    no_robots = overall_rate(results, "fetcher_no_robots")
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
        params={"pages": pages, "rounds": rounds, "block": BLOCK, "delay": 0.0, "sequential": True,
                "source": "bench.sites"},
    )
