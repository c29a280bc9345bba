"""BrowserFetcher and the --render policy against the demo web (real Chromium, 127.0.0.1)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from scrapesmith.sites import DemoServer
from scrapesmith.web.browser import AutoFetcher, BrowserFetcher, BrowserRuntime
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import HttpStatusError, parse_page

pytestmark = pytest.mark.browser

STATIC_PAGES = ["/acme/careers/", "/acme/", "/proceedings/", "/stocks/"]


@pytest.fixture
def http() -> HttpFetcher:
    fetcher = HttpFetcher(allow_hosts=["127.0.0.1"], delay=0.0)
    yield fetcher
    fetcher.close()


@pytest.fixture
def browser(runtime: BrowserRuntime) -> BrowserFetcher:
    fetcher = BrowserFetcher(runtime)
    yield fetcher
    fetcher.close()


def job_titles(page) -> list[str]:
    return [a.text_content().strip() for a in parse_page(page).cssselect("#job-list li.job-card a.job-title")]


def truth(demo_web: DemoServer, site: str) -> dict:
    return httpx.get(demo_web.url(f"/{site}/_truth.json")).json()


def test_js_careers_jobs_appear_only_in_the_rendered_page(demo_web, http, browser):
    url = demo_web.url("/globex/careers/")
    expected = [job["title"] for job in truth(demo_web, "globex")["jobs"]][:6]

    assert job_titles(http.fetch(url)) == []
    rendered = browser.fetch(url)

    assert rendered.via == "browser"
    assert rendered.status == 200
    assert job_titles(rendered) == expected


def test_auto_renders_the_js_page_and_keeps_http_for_static_pages(demo_web, http, browser):
    auto = AutoFetcher(http, browser, "auto")

    js_page = auto.fetch(demo_web.url("/globex/careers/"))
    static = [auto.fetch(demo_web.url(path)) for path in STATIC_PAGES]

    assert js_page.via == "browser" and len(job_titles(js_page)) == 6
    assert [page.via for page in static] == ["http"] * len(STATIC_PAGES)
    first = auto.decisions[0]
    assert first.via == "browser"
    assert "noscript-hint" in first.evidence.signals
    assert "empty-container:job-list" in first.evidence.signals
    assert all(d.reason == "content present in the HTML" for d in auto.decisions[1:])
    assert auto.via_counts() == {"browser": 1, "http": len(STATIC_PAGES)}


def test_render_modes_never_and_always_force_one_path(demo_web, http, browser):
    url = demo_web.url("/acme/careers/")
    assert AutoFetcher(http, browser, "never").fetch(demo_web.url("/globex/careers/")).via == "http"
    always = AutoFetcher(http, browser, "always")
    assert always.fetch(url).via == "browser"
    assert always.decisions[0].reason == "render=always"


def test_status_errors_are_raised_like_the_http_fetcher(demo_web, browser):
    with pytest.raises(HttpStatusError) as failure:
        browser.fetch(demo_web.url("/acme/no-such-page/"))
    assert failure.value.status == 404


def test_non_html_documents_come_back_raw(demo_web, browser):
    page = browser.fetch(demo_web.url("/globex/api/jobs.json"))
    assert page.content_type == "application/json"
    assert page.text.lstrip().startswith("{") and '"jobs"' in page.text


def test_concurrent_fetches_use_separate_contexts_of_one_browser(demo_web, runtime):
    with BrowserFetcher(runtime) as fetcher, ThreadPoolExecutor(4) as pool:
        pages = list(pool.map(fetcher.fetch, [demo_web.url(p) for p in STATIC_PAGES]))
        assert 1 < len(fetcher._sessions) <= runtime.options.max_contexts
    assert [p.status for p in pages] == [200] * len(pages)
    assert {p.url for p in pages} == {demo_web.url(p) for p in STATIC_PAGES}
