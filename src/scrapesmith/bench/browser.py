"""What does rendering cost? Browser launch time, page render time, and pages/s of ``BrowserFetcher``
against ``HttpFetcher`` on the same static demo pages, with 1 and with N concurrent contexts.

Both fetchers get the same safety rules (address guard with 127.0.0.1 allowed, robots.txt on) and no
politeness delay; ``max_per_host`` is raised to the concurrency so the throttle does not serialise the
threads. Each concurrency level first warms up (robots.txt fetched, one context per thread opened), then
every fetcher gets the same URL list through a thread pool of that size; the rate is pages over wall
time. The browser's render time includes its network-idle wait (``BrowserOptions.idle_quiet``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from scrapesmith.bench.frame import BenchResult
from scrapesmith.config import get_settings
from scrapesmith.sites import DemoServer, serve_sites
from scrapesmith.web import Fetcher, HttpFetcher, RobotsPolicy
from scrapesmith.web.browser import BrowserFetcher, BrowserOptions, BrowserPolicy, BrowserRuntime

Progress = Callable[[str], None]


def static_html_urls(server: DemoServer, pages: int) -> list[str]:
    """``pages`` server-rendered HTML pages robots.txt allows, spread over the demo web's sites.

    Pages of the script-rendered site are left out: there the two fetchers would return different
    documents, and this benchmark compares the cost of getting the same one.
    """
    robots_txt = server.sites.respond("/robots.txt")
    answer = (robots_txt.status, robots_txt.body.decode())
    robots = RobotsPolicy(get_settings().user_agent, lambda url: answer)
    paths = sorted(
        path
        for path in server.sites.urls()
        if server.sites.pages[path].content_type.startswith("text/html")
        and not path.startswith("/globex/")
        and robots.allowed(server.url(path))
    )
    step = max(1, len(paths) // pages)
    chosen = paths[::step][:pages]
    return [server.url(chosen[i % len(chosen)]) for i in range(pages)]


def measure_launches(options: BrowserOptions, launches: int) -> list[float]:
    """Seconds from nothing to a browser ready for pages (Playwright driver, Chromium, proxy)."""
    times = []
    for _ in range(launches):
        started = time.monotonic()
        runtime = BrowserRuntime(options, BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"])).start()
        times.append(time.monotonic() - started)
        runtime.close()
    return times


def run_pool(fetcher: Fetcher, urls: Sequence[str], threads: int) -> tuple[float, list[float]]:
    """Wall seconds to fetch ``urls`` over ``threads`` threads, and each page's own fetch time."""
    started = time.monotonic()
    with ThreadPoolExecutor(threads) as pool:
        pages = list(pool.map(fetcher.fetch, urls))
    return time.monotonic() - started, [page.elapsed for page in pages]


def bench_browser(
    pages: int = 40,
    concurrency: Sequence[int] = (1, 4),
    launches: int = 3,
    options: BrowserOptions | None = None,
    on_step: Progress | None = None,
) -> BenchResult:
    options = options or BrowserOptions()
    notify = on_step or (lambda _step: None)
    cases: list[dict] = []
    notify("launch")
    launch_times = measure_launches(options, launches)  # plus one cold start per concurrency level below
    render_times: list[float] = []
    with serve_sites() as server:
        urls = static_html_urls(server, pages)
        for threads in concurrency:
            host = f"127.0.0.1:{server.port}"
            http = HttpFetcher(allow_hosts=[host], delay=0.0, max_per_host=threads, retries=0)
            runtime = BrowserRuntime(replace(options, max_contexts=threads), BrowserPolicy.from_http(http))
            started = time.monotonic()
            runtime.start()
            launch_times.append(time.monotonic() - started)
            with http, runtime, BrowserFetcher(runtime) as browser:
                for name, fetcher in (("http", http), ("browser", browser)):
                    notify(f"{name} x{threads}")
                    run_pool(fetcher, urls[:threads], threads)  # warm-up: robots.txt, contexts
                    seconds, elapsed = run_pool(fetcher, urls, threads)
                    if name == "browser" and threads == 1:
                        render_times = elapsed
                    cases.append({"fetcher": name, "contexts": threads, "pages": len(urls),
                                  "seconds": seconds, "pages_per_s": len(urls) / seconds})
    return BenchResult(
        name="browser",
        summary=_summary(cases, launch_times, render_times),
        cases=cases,
        params={"pages": pages, "concurrency": list(concurrency), "launches": launches,
                "idle_quiet": options.idle_quiet, "settle_timeout": options.settle_timeout},
    )


def _summary(cases: list[dict], launch_times: list[float], render_times: list[float]) -> dict:
    summary: dict[str, float | int | str] = {
        "launch_s_median": statistics.median(launch_times),
        "launch_s_max": max(launch_times),
    }
    if render_times:
        ordered = sorted(render_times)
        summary["render_s_median"] = statistics.median(ordered)
        summary["render_s_p90"] = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    for case in cases:
        summary[f"{case['fetcher']}_pages_per_s_x{case['contexts']}"] = case["pages_per_s"]
    for threads in sorted({case["contexts"] for case in cases}):
        http = summary.get(f"http_pages_per_s_x{threads}")
        browser = summary.get(f"browser_pages_per_s_x{threads}")
        if isinstance(http, float) and isinstance(browser, float) and browser:
            summary[f"http_over_browser_x{threads}"] = http / browser
    return summary
