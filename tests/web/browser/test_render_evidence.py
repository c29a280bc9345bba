"""Which HTTP pages need a browser: the evidence ``--render auto`` decides on (no browser involved)."""

from __future__ import annotations

import pytest

from scrapesmith.web.browser.render import AutoFetcher, assess
from scrapesmith.web.fetch import HttpFetcher
from scrapesmith.web.page import Page

FILLER = "<p>" + "Plenty of server-rendered words here. " * 40 + "</p>"


def html_page(body: str, head: str = "") -> Page:
    text = f"<!DOCTYPE html><html><head><title>t</title>{head}</head><body>{body}</body></html>"
    return Page(url="http://127.0.0.1/x", content=text.encode(), text=text)


def test_static_article_needs_no_browser():
    assert assess(html_page(f"<h1>News</h1>{FILLER}<ul><li>a</li><li>b</li></ul>")).signals == ()


def test_noscript_asking_for_javascript_is_a_signal_but_a_tracking_pixel_is_not():
    asking = html_page(f"{FILLER}<noscript>Please enable JavaScript to use this app.</noscript>")
    pixel = html_page(f'{FILLER}<noscript><img src="/pixel.gif" alt=""></noscript><script>track()</script>')
    assert "noscript-hint" in assess(asking).signals
    assert assess(pixel).signals == ()


def test_empty_list_container_counts_only_on_pages_with_scripts():
    container = '<div id="results" class="search-results"></div>'
    scripted = html_page(f'{FILLER}{container}<script src="/app.js"></script>')
    plain = html_page(f"{FILLER}{container}")
    assert assess(scripted).signals == ("empty-container:results",)
    assert assess(plain).signals == ()


def test_empty_single_page_app_root_with_tiny_text():
    shell = html_page('<div id="root"></div>' + "<script>" + "var x = 1;" * 300 + "</script>")
    evidence = assess(shell)
    assert "empty-app-root:#root" in evidence.signals
    assert "tiny-text" in evidence.signals and "script-heavy" in evidence.signals
    assert evidence.needs_browser


def test_non_html_documents_never_need_a_browser():
    data = Page(url="http://127.0.0.1/a.json", content=b"{}", text="{}", content_type="application/json")
    assert not assess(data).needs_browser


class _Recorder:
    """A fetcher returning a fixed page and counting calls (a real Fetcher implementation, not a mock)."""

    def __init__(self, page: Page, via: str) -> None:
        self.page = Page(**{**page.__dict__, "via": via})
        self.calls = 0

    def fetch(self, url: str) -> Page:
        self.calls += 1
        return self.page


def test_auto_fetcher_only_calls_the_browser_when_evidence_says_so():
    static, shell = html_page(FILLER), html_page('<div id="app"></div><script src="/a.js"></script>')
    http_static, browser = _Recorder(static, "http"), _Recorder(static, "browser")
    auto = AutoFetcher(http_static, browser)
    assert auto.fetch("http://127.0.0.1/x").via == "http" and browser.calls == 0

    auto.http = _Recorder(shell, "http")
    assert auto.fetch("http://127.0.0.1/y").via == "browser" and browser.calls == 1
    assert [d.via for d in auto.decisions] == ["http", "browser"]
    assert auto.decisions[1].reason.startswith("rendered: ")


def test_unknown_render_mode_is_refused():
    with pytest.raises(ValueError, match="auto, never, always"):
        AutoFetcher(_Recorder(html_page(""), "http"), _Recorder(html_page(""), "browser"), "sometimes")  # type: ignore[arg-type]


def test_on_the_demo_web_only_the_script_rendered_job_board_needs_a_browser(demo_web):
    with HttpFetcher(allow_hosts=["127.0.0.1"], delay=0.0) as http:
        pages = demo_web.sites.pages
        paths = [path for path in sorted(demo_web.sites.urls())
                 if pages[path].content_type.startswith("text/html") and not path.startswith("/private")]
        flagged = [path for path in paths if assess(http.fetch(demo_web.url(path))).needs_browser]
    assert len(paths) > 100
    assert flagged == ["/globex/careers/"]
