"""Following links from a listing into the pages behind it (``scrapesmith crawl``), politely.

A rule (``--follow``) says which links to follow: a CSS selector for the links (or for elements that hold
them), or a regular expression the absolute URL must match. The crawl walks breadth first from the start
page, stays on the start page's site, fetches through :class:`~scrapesmith.web.fetch.HttpFetcher` (robots.txt,
a delay per host, the private-address block, size and type limits) and stops at ``max_pages`` fetches or
``max_depth`` links from the start. What it returns is the list of pages the rule reached, in the order
found: the URL list ``run``, ``induce`` and ``lists`` already read.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

import regex

from scrapesmith.dom import (
    HtmlElement,
    SelectorError,
    css_to_xpath,
    is_parsable_url,
    parse_html,
    safe_urljoin,
    select,
)
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import read_json_lines
from scrapesmith.web.page import Fetcher, FetchError

CrawlProgress = Callable[[int, str], None]


class CrawlRuleError(ScrapesmithError):
    """A follow rule is neither a CSS selector nor a regular expression."""


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
            raise CrawlRuleError("the follow rule is empty: give a CSS selector for the links or a regex for their URLs")
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
            raise CrawlRuleError(f"{text!r} is not a CSS selector: {exc}") from exc
        return cls(text, css=css)

    @classmethod
    def _regex(cls, text: str, pattern: str) -> FollowRule:
        try:
            return cls(text, pattern=regex.compile(pattern))
        except regex.error as exc:
            raise CrawlRuleError(f"{text!r} is neither a CSS selector nor a regex ({exc})") from exc

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


class CrawlJournal:
    """What a crawl did, one JSON line per page fetched (its links, or why it failed), fsynced as it goes.

    A crawl stopped at any point (``kill -9``, Ctrl-C) walks again from the start, taking every page the
    journal holds from it instead of the network, and goes on where it stopped (``crawl --resume``): no page
    is fetched twice and none is lost. A half-written last line is the page being fetched; it is fetched again.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def entries(self) -> list[dict[str, Any]]:
        return read_json_lines(self.path)[0] if self.path.exists() else []

    def append(self, entry: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


def crawl(start_url: str, rule: FollowRule, fetcher: Fetcher, *, max_pages: int = 100, max_depth: int = 3,
          progress: CrawlProgress | None = None, journal: CrawlJournal | None = None) -> CrawlResult:
    """Breadth-first from ``start_url``, following ``rule`` within the start page's site.

    Every fetch counts against ``max_pages`` (the start page too); a page that fails is recorded in
    ``failures`` and the crawl goes on. Only pages reached by the rule (never the start page) are listed.
    With a ``journal``, the pages it holds are taken from it rather than fetched again, and every page
    fetched is added to it.
    """
    walk = _Walk(start_url)
    done = {entry.get("url"): entry for entry in journal.entries()} if journal is not None else {}
    while walk.queue:
        if walk.result.fetched >= max_pages:
            walk.result.stop_reason = f"page limit ({max_pages}) reached"
            break
        url, depth = walk.queue.popleft()
        entry = done.get(url)
        if entry is None:
            entry = _visit(fetcher, rule, url, depth, max_depth)
            if journal is not None:
                journal.append(entry)
        walk.record(entry, depth)
        if progress and "error" not in entry:
            progress(walk.result.fetched, url)
    return walk.result


def _visit(fetcher: Fetcher, rule: FollowRule, url: str, depth: int, max_depth: int) -> dict[str, Any]:
    """Fetch one page: where it ended and the links the rule follows on it, or why it failed."""
    try:
        page = fetcher.fetch(url)
    except (FetchError, ScrapesmithError) as exc:
        return {"url": url, "error": str(exc)}
    links = rule.links(parse_html(page.text, url=page.url), page.url) if depth < max_depth else []
    return {"url": url, "final": page.url, "links": links}


class _Walk:
    """The breadth-first state: the queue, what was seen, and the result so far."""

    def __init__(self, start_url: str) -> None:
        self.site = urlsplit(start_url).netloc
        self.result = CrawlResult(start_url)
        self.queue: deque[tuple[str, int]] = deque([(start_url, 0)])
        self.seen = {start_url}

    def record(self, entry: dict[str, Any], depth: int) -> None:
        url = entry["url"]
        self.result.fetched += 1
        if "error" in entry:
            self.result.failures[url] = entry["error"]
            return
        if depth:
            self.result.urls.append(entry["final"])
        for link in entry.get("links", []):
            if link not in self.seen and urlsplit(link).netloc == self.site:
                self.seen.add(link)
                self.queue.append((link, depth + 1))
