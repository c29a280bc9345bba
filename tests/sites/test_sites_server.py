"""The demo server: site index, robots.txt, private area, 404s, redirects, methods, request log."""

from __future__ import annotations

import threading

import httpx
import lxml.html
import pytest
from demo_web_helpers import get, page, texts

from scrapesmith.sites import DemoServer, SiteServerError, build_sites, serve_sites


def test_root_lists_every_site_with_its_truth(demo_web: DemoServer) -> None:
    doc = page(demo_web, "/")
    hrefs = doc.xpath('//table[@id="sites"]//a/@href')
    for name in demo_web.sites.site_names:
        assert f"/{name}/" in hrefs and f"/{name}/_truth.json" in hrefs
        truth = get(demo_web, f"/{name}/_truth.json")
        assert truth.headers["content-type"] == "application/json"
        assert truth.json() == demo_web.sites.truth(name)


def test_robots_txt_disallows_only_the_private_area(demo_web: DemoServer) -> None:
    response = get(demo_web, "/robots.txt")
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    rules = [line for line in response.text.splitlines() if line and not line.startswith("#")]
    assert rules == ["User-agent: *", "Disallow: /private/", "Allow: /"]
    assert get(demo_web, "/private/").status_code == 200


def test_pages_link_into_the_private_area(demo_web: DemoServer) -> None:
    job = demo_web.sites.truth("acme")["jobs"][0]
    assert page(demo_web, job["url"]).xpath('//a[starts-with(@href, "/private/")]')
    assert get(demo_web, "/private/apply?job=1").status_code == 200


def test_unknown_paths_are_404_html_or_json_under_api(demo_web: DemoServer) -> None:
    missing = get(demo_web, "/acme/no-such-page/")
    assert missing.status_code == 404 and missing.headers["content-type"] == "text/html; charset=utf-8"
    assert texts(lxml.html.fromstring(missing.content), "//h1") == ["404 Not Found"]
    api = get(demo_web, "/stocks/api/nothing")
    assert api.status_code == 404 and api.json() == {"error": "not found"}


def test_missing_trailing_slash_redirects(demo_web: DemoServer) -> None:
    response = get(demo_web, "/acme/careers?category=design")
    assert response.status_code == 301 and response.headers["location"] == "/acme/careers/?category=design"


def test_unused_query_parameters_are_ignored(demo_web: DemoServer) -> None:
    plain = get(demo_web, "/proceedings/")
    tracked = get(demo_web, "/proceedings/?utm_source=test")
    assert tracked.status_code == 200 and tracked.content == plain.content
    assert get(demo_web, "/acme/careers/?page=1&utm=x").content == get(demo_web, "/acme/careers/").content


def test_head_answers_headers_and_post_is_refused(demo_web: DemoServer) -> None:
    head = httpx.head(demo_web.url("/sports/"))
    assert head.status_code == 200 and int(head.headers["content-length"]) == len(
        get(demo_web, "/sports/").content
    )
    post = httpx.post(demo_web.url("/private/apply"), data={"name": "x"})
    assert post.status_code == 405 and post.headers["allow"] == "GET, HEAD"


def test_html_pages_declare_utf8(demo_web: DemoServer) -> None:
    for path in demo_web.sites.urls():
        _status, content_type, body, _headers = demo_web.sites.pages[path]
        if content_type.startswith("text/html"):
            assert content_type == "text/html; charset=utf-8" and b'<meta charset="utf-8">' in body
            body.decode("utf-8")


def test_every_link_on_every_page_resolves(demo_web: DemoServer) -> None:
    sites = demo_web.sites
    for path in sites.urls():
        if not sites.pages[path].content_type.startswith("text/html"):
            continue
        doc = lxml.html.fromstring(sites.pages[path].body)
        for href in doc.xpath("//a/@href | //script/@src | //form[@method='get']/@action"):
            if href.startswith("#"):
                continue
            target = href if href.startswith("/") else path.split("?")[0] + href
            assert sites.respond(target).status in (200, 301), f"{path} links to {href}"


def test_request_log_records_method_and_target_in_order(demo_web: DemoServer) -> None:
    before = len(demo_web.request_log)
    get(demo_web, "/stocks/")
    httpx.head(demo_web.url("/stocks/api/symbols"))
    entries = demo_web.request_log.snapshot()[before:]
    assert [(method, target) for _t, method, target in entries][-2:] == [
        ("GET", "/stocks/"),
        ("HEAD", "/stocks/api/symbols"),
    ]
    assert entries[-2][0] <= entries[-1][0]


def test_concurrent_clients_are_served(demo_web: DemoServer) -> None:
    paths = demo_web.sites.urls("proceedings", "detail")[:40]
    results: list[int] = []

    def fetch(chunk: list[str]) -> None:
        with httpx.Client() as client:
            results.extend(client.get(demo_web.url(p)).status_code for p in chunk)

    threads = [threading.Thread(target=fetch, args=(paths[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [200] * len(paths)


def test_serve_sites_shuts_down_cleanly_even_with_keep_alive_clients() -> None:
    before = set(threading.enumerate())
    with httpx.Client(timeout=2) as client:
        with serve_sites(port=0, seed=3) as server:
            assert server.base_url.startswith("http://127.0.0.1:") and server.sites.seed == 3
            assert client.get(server.url("/")).status_code == 200
            started = set(threading.enumerate()) - before
        with pytest.raises(httpx.TransportError):
            client.get(server.url("/"))
    for thread in started:
        thread.join(timeout=2)
    assert len(started) >= 2 and not any(thread.is_alive() for thread in started)


def test_a_taken_port_is_a_clear_error(demo_web: DemoServer) -> None:
    with pytest.raises(SiteServerError, match="cannot serve the demo sites"):
        DemoServer(build_sites(), port=demo_web.port)
