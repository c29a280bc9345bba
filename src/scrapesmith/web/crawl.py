"""Following links from a listing into the pages behind it (``scrapesmith crawl``), politely.

A rule (``--follow``) says which links to follow: a CSS selector for the links (or for elements that hold
them), or a regular expression the absolute URL must match. The crawl walks breadth first from the start
page, stays on the start page's site, fetches through :class:`~scrapesmith.web.fetch.HttpFetcher` (robots.txt,
a delay per host, the private-address block, size and type limits) and stops at ``max_pages`` fetches or
``max_depth`` links from the start. What it returns is the list of pages the rule reached, in the order
found: the URL list ``run``, ``induce`` and ``lists`` already read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

import regex

from scrapesmith.dom.parse import HtmlElement, is_parsable_url, parse_html, safe_urljoin
from scrapesmith.dom.selectors import SelectorError, css_to_xpath, select
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web.page import Fetcher, FetchError

CrawlProgress = Callable[[int, str], None]


class CrawlRuleError(ScrapesmithError):
    """The ``--follow`` rule is neither a CSS selector nor a regular expression."""


@dataclass
class CrawlResult:
    """The pages the rule reached (fetched), the ones that failed, and why the crawl stopped."""

    start_url: str
    urls: list[str] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)
    fetched: int = 0
    stop_reason: str = "no more links"


@dataclass(frozen=True)
class FollowRule:
    """Which links to follow: ``css`` selects link elements (or their containers), ``pattern`` matches URLs.

    ``css:`` or ``re:`` in front of the text forces a reading; otherwise text that parses as CSS is CSS.
    """

    text: str
    css: str | None = None
    pattern: regex.Pattern[str] | None = None

    @classmethod
    def parse(cls, text: str) -> FollowRule:
        body = text.strip()
        if not body:
            raise CrawlRuleError("--follow is empty: give a CSS selector for the links or a regex for their URLs")
        kind, _, rest = body.partition(":")
        if kind in ("css", "re") and rest:
            return cls._css(text, rest) if kind == "css" else cls._regex(text, rest)
        try:
            return cls._css(text, body)
        except CrawlRuleError:
            return cls._regex(text, body)

    @classmethod
    def _css(cls, text: str, css: str) -> FollowRule:
        try:
            css_to_xpath(css)
        except SelectorError as exc:
            raise CrawlRuleError(f"--follow {text!r} is not a CSS selector: {exc}") from exc
        return cls(text, css=css)

    @classmethod
    def _regex(cls, text: str, pattern: str) -> FollowRule:
        try:
            return cls(text, pattern=regex.compile(pattern))
        except regex.error as exc:
            raise CrawlRuleError(f"--follow {text!r} is neither a CSS selector nor a regex ({exc})") from exc

    def links(self, tree: HtmlElement, page_url: str) -> list[str]:
        """Absolute URLs (no fragment) of the links on the page that the rule follows, in page order."""
        if self.css is not None:
            anchors = []
            for element in select(tree, self.css):
                if isinstance(element, HtmlElement):
                    anchors += [element] if element.get("href") else element.xpath(".//a[@href]")
            hrefs = [anchor.get("href") for anchor in anchors]
        else:
            hrefs = tree.xpath("//a/@href | //area/@href")
        urls = []
        for href in hrefs:
            url = urldefrag(safe_urljoin(page_url, str(href).strip()))[0]
            if not is_parsable_url(url) or urlsplit(url).scheme not in ("http", "https", "file"):
                continue
            if self.pattern is None or self.pattern.search(url, timeout=1.0):
                urls.append(url)
        return urls


def crawl(start_url: str, rule: FollowRule, fetcher: Fetcher, *, max_pages: int = 100, max_depth: int = 3,
          progress: CrawlProgress | None = None) -> CrawlResult:
    """Breadth-first from ``start_url``, following ``rule`` within the start page's site.

    Every fetch counts against ``max_pages`` (the start page too); a page that fails is recorded in
    ``failures`` and the crawl goes on. Only pages reached by the rule (never the start page) are listed.
    """
    site = urlsplit(start_url).netloc
    result = CrawlResult(start_url)
    queue: deque[tuple[str, int]] = deque([(start_url, 0)])
    seen = {start_url}
    while queue:
        if result.fetched >= max_pages:
            result.stop_reason = f"--max-pages {max_pages} reached"
            break
        url, depth = queue.popleft()
        result.fetched += 1
        try:
            page = fetcher.fetch(url)
        except (FetchError, ScrapesmithError) as exc:
            result.failures[url] = str(exc)
            continue
        if depth:
            result.urls.append(page.url)
        if progress:
            progress(result.fetched, url)
        if depth >= max_depth:
            continue
        for link in rule.links(parse_html(page.text, url=page.url), page.url):
            if link not in seen and urlsplit(link).netloc == site:
                seen.add(link)
                queue.append((link, depth + 1))
    return result
