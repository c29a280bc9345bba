"""When does a page need a browser? Evidence from the HTTP response, and the ``--render`` policy.

Rendering costs a browser and several times the time of an HTTP fetch, so ``--render auto`` fetches over
HTTP first and renders only when the document itself says its content is missing. The signals, each
cheap to compute from the parsed HTML:

* ``noscript-hint`` — a ``<noscript>`` that asks for JavaScript ("enable JavaScript", "requires
  JavaScript"); analytics pixels in ``<noscript>`` do not count;
* ``empty-container`` — a list-like container (``ul``/``ol``/``tbody``/``table`` or an element whose
  id/class says list, results, items, jobs, grid…) with no child elements, on a page that has scripts;
* ``empty-app-root`` — a single-page-app mount point (``#root``, ``#app``, ``#__next``…) left empty;
* ``tiny-text`` — under ``TINY_TEXT_CHARS`` visible characters in a document of over ``MIN_MARKUP``
  bytes that carries scripts;
* ``script-heavy`` — scripts make up most of the markup and the visible text is short.

Any one signal sends the page to the browser. Each decision (path and reasons) is kept in
:attr:`AutoFetcher.decisions`, so a run can report which path served every page and why.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Literal

from lxml import etree

from scrapesmith.dom import HtmlElement
from scrapesmith.web.browser.views import BrowserError
from scrapesmith.web.page import Fetcher, FetchError, Page, parse_page

RenderMode = Literal["auto", "never", "always"]
RENDER_MODES: tuple[str, ...] = ("auto", "never", "always")

TINY_TEXT_CHARS = 200
MIN_MARKUP = 1500
SCRIPT_SHARE = 0.5
SCRIPT_HEAVY_TEXT = 1000
LIST_WORDS = re.compile(
    r"(^|[-_ ])(list|lists|results?|items?|jobs?|listings?|grid|feed|cards?|products?|rows?)($|[-_ ])"
)
APP_ROOT_IDS = frozenset({"root", "app", "__next", "__nuxt", "svelte", "main-app", "react-root", "ember-app"})
JS_HINT = re.compile(
    r"\b(enable|requires?|needs?|turn on|activate)\b[^.]{0,40}\bjavascript\b"
    r"|\bjavascript\b[^.]{0,40}\b(required|disabled|needed|must be enabled)\b",
    re.IGNORECASE,
)
INVISIBLE_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title", "meta", "link"})


@dataclass(frozen=True)
class RenderEvidence:
    """What the HTTP copy of a page says about needing a browser; ``signals`` empty means it does not."""

    signals: tuple[str, ...] = ()
    text_chars: int = 0
    markup_bytes: int = 0
    scripts: int = 0

    @property
    def needs_browser(self) -> bool:
        return bool(self.signals)


@dataclass(frozen=True)
class RenderDecision:
    """Which path served ``url`` (``http`` or ``browser``) and why."""

    url: str
    via: str
    reason: str
    evidence: RenderEvidence = field(default_factory=RenderEvidence)


def assess(page: Page) -> RenderEvidence:
    """The rendering signals of an HTTP-fetched page (see the module docstring)."""
    if not page.is_html or not page.text.strip():
        return RenderEvidence(markup_bytes=len(page.content))
    tree = parse_page(page)
    body = tree.find("body")
    text = _visible_text(body) if body is not None else ""
    scripts = tree.findall(".//script")
    script_bytes = sum(len(s.text or "") + (200 if s.get("src") else 0) for s in scripts)
    markup = len(page.text)
    signals = ["noscript-hint"] if _noscript_hint(tree) else []
    if scripts:  # an empty container on a page without scripts is simply empty
        signals += [f"empty-container:{name}" for name in _empty_containers(tree)]
        signals += [f"empty-app-root:#{name}" for name in _empty_app_roots(tree)]
    if scripts and len(text) < TINY_TEXT_CHARS and markup > MIN_MARKUP:
        signals.append("tiny-text")
    if markup and script_bytes / markup > SCRIPT_SHARE and len(text) < SCRIPT_HEAVY_TEXT:
        signals.append("script-heavy")
    return RenderEvidence(tuple(signals), len(text), markup, len(scripts))


def _visible_text(element: HtmlElement) -> str:
    parts: list[str] = []
    for node in element.iter():
        if not isinstance(node.tag, str):
            continue
        if node.tag in INVISIBLE_TAGS or any(a.tag in INVISIBLE_TAGS for a in node.iterancestors()):
            continue
        parts.append(node.text or "")
        if node is not element:
            parent = node.getparent()
            if parent is not None and parent.tag not in INVISIBLE_TAGS:
                parts.append(node.tail or "")
    return " ".join(" ".join(parts).split())


def _noscript_hint(tree: HtmlElement) -> bool:
    return any(JS_HINT.search(" ".join(n.itertext())) for n in tree.iter("noscript"))


def _empty_containers(tree: HtmlElement) -> list[str]:
    found = []
    for element in tree.iter(etree.Element):
        if not isinstance(element.tag, str) or len(element) or (element.text or "").strip():
            continue
        words = f"{element.get('id', '')} {element.get('class', '')}".lower()
        named_list = element.tag in ("div", "section", "table") and LIST_WORDS.search(words)
        if element.tag in ("ul", "ol", "tbody") or named_list:
            found.append(element.get("id") or (element.get("class") or element.tag).split()[0])
    return found


def _empty_app_roots(tree: HtmlElement) -> list[str]:
    return [
        element.get("id")
        for element in tree.iter("div", "main", "section")
        if element.get("id") in APP_ROOT_IDS and not len(element) and not (element.text or "").strip()
    ]


class AutoFetcher:
    """The ``--render`` policy as a :class:`Fetcher`: ``never`` is HTTP, ``always`` is the browser, and
    ``auto`` renders only pages whose HTTP copy shows :func:`assess` signals.

    ``browser`` is any fetcher returning rendered pages (normally a
    :class:`~scrapesmith.web.browser.BrowserFetcher`). In ``auto`` mode a browser failure falls back to
    the HTTP copy, and the decision records it. Thread-safe.
    """

    def __init__(self, http: Fetcher, browser: Fetcher, mode: RenderMode = "auto") -> None:
        if mode not in RENDER_MODES:
            raise ValueError(f"render mode must be one of {', '.join(RENDER_MODES)}, not {mode!r}")
        self.http = http
        self.browser = browser
        self.mode = mode
        self.decisions: list[RenderDecision] = []
        self._lock = threading.Lock()

    def fetch(self, url: str) -> Page:
        if self.mode == "always":
            return self._record(url, self.browser.fetch(url), "render=always")
        page = self.http.fetch(url)
        if self.mode == "never":
            return self._record(url, page, "render=never")
        evidence = assess(page)
        if not evidence.needs_browser:
            return self._record(url, page, "content present in the HTML", evidence)
        try:
            rendered = self.browser.fetch(url)
        except (FetchError, BrowserError) as exc:
            fallback = f"browser failed ({exc}); kept the HTTP copy despite: {', '.join(evidence.signals)}"
            return self._record(url, page, fallback, evidence)
        return self._record(url, rendered, "rendered: " + ", ".join(evidence.signals), evidence)

    def close(self) -> None:
        for fetcher in (self.browser, self.http):
            close = getattr(fetcher, "close", None)
            if close is not None:
                close()

    def via_counts(self) -> dict[str, int]:
        with self._lock:
            counts: dict[str, int] = {}
            for decision in self.decisions:
                counts[decision.via] = counts.get(decision.via, 0) + 1
            return counts

    def _record(self, url: str, page: Page, reason: str, evidence: RenderEvidence | None = None) -> Page:
        with self._lock:
            self.decisions.append(RenderDecision(url, page.via, reason, evidence or RenderEvidence()))
        return page
