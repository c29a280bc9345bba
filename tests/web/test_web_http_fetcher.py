"""HttpFetcher against a real local server: robots, retries, limits, redirects, content types."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from scrapesmith.web.fetch import HttpFetcher, parse_retry_after
from scrapesmith.web.page import (
    HttpStatusError,
    RobotsDisallowed,
    TooLarge,
    TooManyRedirects,
    Unreachable,
    UnsupportedContent,
)


def test_fetch_returns_decoded_page_with_final_url(site, make_fetcher):
    page = make_fetcher().fetch(site.url("/redirect?to=/page/one#frag"))
    assert page.status == 200
    assert page.url == site.url("/page/one")
    assert page.requested_url == site.url("/redirect?to=/page/one#frag")
    assert "page /page/one" in page.text
    assert page.content_type == "text/html" and page.encoding == "utf-8" and page.via == "http"


def test_custom_user_agent_is_sent(site, make_fetcher):
    make_fetcher(user_agent="test-agent/9.9").fetch(site.url("/page/ua"))
    assert {entry.user_agent for entry in site.state.log} == {"test-agent/9.9"}


def test_robots_txt_refusal(site, make_fetcher):
    fetcher = make_fetcher()
    with pytest.raises(RobotsDisallowed):
        fetcher.fetch(site.url("/private/secret"))
    assert fetcher.fetch(site.url("/page/open")).status == 200
    assert site.state.hits["/robots.txt"] == 1, "robots.txt is fetched once per origin"
    assert "/private/secret" not in site.state.hits, "a refused page is never requested"


def test_robots_can_be_ignored_on_request(site, make_fetcher):
    assert make_fetcher(respect_robots=False).fetch(site.url("/private/secret")).status == 200
    assert "/robots.txt" not in site.state.hits


def test_robots_5xx_disallows_everything_and_404_allows_everything(serve, make_fetcher):
    broken, missing = serve(), serve()
    broken.state.robots = (503, "down")
    missing.state.robots = (404, "")
    fetcher = make_fetcher(allow_hosts=[broken.host_port, missing.host_port])
    with pytest.raises(RobotsDisallowed):
        fetcher.fetch(broken.url("/page/x"))
    assert fetcher.fetch(missing.url("/private/x")).status == 200


def test_retry_on_503_then_success(site, make_fetcher):
    page = make_fetcher(retries=3).fetch(site.url("/flaky/a?fail=2"))
    assert "recovered" in page.text
    assert site.state.hits["/flaky/a?fail=2"] == 3


def test_5xx_after_retries_is_an_http_status_error(site, make_fetcher):
    with pytest.raises(HttpStatusError) as caught:
        make_fetcher(retries=1).fetch(site.url("/flaky/b?fail=5"))
    assert caught.value.status == 503
    assert site.state.hits["/flaky/b?fail=5"] == 2


def test_dropped_connection_is_retried(site, make_fetcher):
    page = make_fetcher(retries=1).fetch(site.url("/drop/a"))
    assert "answered" in page.text and site.state.hits["/drop/a"] == 2


def test_404_is_not_retried(site, make_fetcher):
    with pytest.raises(HttpStatusError) as caught:
        make_fetcher(retries=3).fetch(site.url("/status/404"))
    assert caught.value.status == 404
    assert site.state.hits["/status/404"] == 1


def test_retry_after_seconds_is_honoured(site, make_fetcher):
    page = make_fetcher(retries=2, backoff=0.01).fetch(site.url("/ratelimit/k?after=1"))
    assert "welcome back" in page.text
    first, second = [entry for entry in site.state.log if entry.path == "/ratelimit/k?after=1"]
    waited = second.started - first.started
    assert 0.9 <= waited < 5.0, f"waited {waited:.2f}s for Retry-After: 1"


def test_retry_after_is_capped(site, make_fetcher):
    make_fetcher(retries=1, max_retry_wait=0.2).fetch(site.url("/ratelimit/c?after=120"))
    first, second = [entry for entry in site.state.log if entry.path.startswith("/ratelimit/c")]
    assert second.started - first.started < 2.0


def test_parse_retry_after_reads_seconds_and_http_dates():
    assert parse_retry_after("7") == 7.0
    later = datetime.now(UTC) + timedelta(seconds=30)
    assert 25 <= parse_retry_after(format_datetime(later, usegmt=True)) <= 31
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None


@pytest.mark.parametrize("chunked", ["0", "1"], ids=["content-length", "unannounced-length"])
def test_size_cap_aborts_large_responses(site, make_fetcher, chunked):
    with pytest.raises(TooLarge):
        make_fetcher(max_bytes=50_000).fetch(site.url(f"/big?size=2000000&chunked={chunked}"))


def test_size_cap_lets_smaller_responses_through(site, make_fetcher):
    page = make_fetcher(max_bytes=50_000).fetch(site.url("/big?size=40000&chunked=1"))
    assert len(page.content) == 40_000


def test_redirect_loop_is_detected(site, make_fetcher):
    with pytest.raises(TooManyRedirects, match="loop"):
        make_fetcher().fetch(site.url("/loop/a"))
    assert site.state.hits["/loop/a"] == 1 and site.state.hits["/loop/b"] == 1


def test_redirect_limit(site, make_fetcher):
    assert make_fetcher(max_redirects=3).fetch(site.url("/chain/3")).url == site.url("/chain/0")
    with pytest.raises(TooManyRedirects, match="more than 3"):
        make_fetcher(max_redirects=3).fetch(site.url("/chain/4"))


def test_redirect_into_a_blocked_host_is_refused(site, make_fetcher):
    from scrapesmith.web.page import BlockedAddress

    port = site.server_address[1]
    with pytest.raises(BlockedAddress):
        make_fetcher().fetch(site.url(f"/redirect?to=http://localhost:{port}/page/inside"))
    assert "/page/inside" not in site.state.hits


def test_non_html_content_is_refused(site, make_fetcher):
    with pytest.raises(UnsupportedContent, match="image/png"):
        make_fetcher().fetch(site.url("/image.png"))


def test_json_is_accepted(site, make_fetcher):
    page = make_fetcher().fetch(site.url("/data.json"))
    assert page.content_type == "application/json" and "café" in page.text


def test_accepts_matches_wildcards_and_structured_suffixes():
    from scrapesmith.web.content import DEFAULT_ACCEPT_TYPES, accepts, sniff_media_type

    assert accepts(DEFAULT_ACCEPT_TYPES, "application/rss+xml") and accepts(DEFAULT_ACCEPT_TYPES, "text/csv")
    assert accepts(DEFAULT_ACCEPT_TYPES, "application/ld+json")
    assert not accepts(DEFAULT_ACCEPT_TYPES, "application/pdf") and not accepts(["text/html"], "text/plain")
    assert sniff_media_type(b"\n <!DOCTYPE html><html>") == "text/html"
    assert sniff_media_type(b'{"a": 1}') == "application/json" and sniff_media_type(b"plain") == "text/plain"


def test_accept_types_can_be_widened(site, make_fetcher):
    page = make_fetcher(accept_types=["image/*"]).fetch(site.url("/image.png"))
    assert page.content.startswith(b"\x89PNG")


def test_timeout_becomes_unreachable(site, make_fetcher):
    with pytest.raises(Unreachable, match="timed out"):
        make_fetcher(timeout=0.2, retries=0).fetch(site.url("/slow?s=1"))


def test_connection_refused_is_unreachable(site):
    with HttpFetcher(allow_hosts=["127.0.0.1"], delay=0, retries=0) as fetcher:
        site.server_close()  # the port is now closed
        with pytest.raises(Unreachable):
            fetcher.fetch(site.url("/page/gone"))


def test_loopback_is_blocked_by_default(site):
    from scrapesmith.web.page import BlockedAddress

    with HttpFetcher(delay=0, allow_hosts=[]) as fetcher, pytest.raises(BlockedAddress, match="127.0.0.1"):
        fetcher.fetch(site.url("/page/x"))
    assert not site.state.log, "nothing reaches a blocked host"


@pytest.mark.parametrize("entry", ["127.0.0.1", "HOST:PORT"])
def test_per_host_override_lifts_the_block(site, entry):
    allowed = site.host_port if entry == "HOST:PORT" else entry
    with HttpFetcher(delay=0, allow_hosts=[allowed]) as fetcher:
        assert fetcher.fetch(site.url("/page/x")).status == 200


def test_override_for_another_port_does_not_lift_the_block(site):
    from scrapesmith.web.page import BlockedAddress

    with HttpFetcher(delay=0, allow_hosts=["127.0.0.1:1"]) as fetcher, pytest.raises(BlockedAddress):
        fetcher.fetch(site.url("/page/x"))


def test_politeness_caps_concurrency_and_spaces_requests(site, make_fetcher):
    fetcher = make_fetcher(delay=0.15, max_per_host=2, respect_robots=False)
    urls = [site.url(f"/slow?s=0.3&n={n}") for n in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        pages = list(pool.map(fetcher.fetch, urls))
    assert all(page.status == 200 for page in pages)
    assert site.state.max_active == 2
    starts = sorted(entry.started for entry in site.state.log)
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    # Arrival times jitter on a loaded machine, so check the spread as a whole and a loose per-gap floor.
    assert starts[-1] - starts[0] >= 5 * 0.15 * 0.85, f"requests not spaced out: {gaps}"
    assert min(gaps) >= 0.05, f"request starts too close: {gaps}"


def test_without_politeness_requests_overlap(site, make_fetcher):
    fetcher = make_fetcher(delay=0.0, max_per_host=4, respect_robots=False)
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(fetcher.fetch, [site.url(f"/slow?s=0.3&n={n}") for n in range(4)]))
    assert site.state.max_active >= 2


def test_remembering_fetcher_reads_each_page_once_and_retries_failures(site, make_fetcher):
    from scrapesmith.web.fetch import RememberingFetcher

    fetcher = RememberingFetcher(make_fetcher(retries=0), max_pages=2)
    first = fetcher.fetch(site.url("/page/a"))
    assert fetcher.fetch(site.url("/page/a")) is first and site.state.hits["/page/a"] == 1 and fetcher.again == 1
    fetcher.fetch(site.url("/page/b"))
    fetcher.fetch(site.url("/page/c"))  # over max_pages: /page/a, the least recently used, is forgotten
    fetcher.fetch(site.url("/page/a"))
    assert site.state.hits["/page/a"] == 2 and site.state.hits["/page/c"] == 1
    for _ in range(2):
        with pytest.raises(HttpStatusError):
            fetcher.fetch(site.url("/status/404"))
    assert site.state.hits["/status/404"] == 2
