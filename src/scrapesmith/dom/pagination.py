"""Pagination: the control that leads to a list's next page, and the link back to its first page.

By the strongest evidence first: ``rel=next``, a link that says "Next"/"›"/"»" (never "Previous"), then the
next page number (``?page=``, ``/page/2``) among the page's links; only links on the same site that lead
elsewhere than the page itself count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlparse

from lxml import etree

from scrapesmith.dom.parse import is_parsable_url, safe_urljoin
from scrapesmith.dom.selectors import element_text


@dataclass
class PaginationControl:
    """How to reach the next page: a URL found in the page, and the element it came from (if any)."""

    url: str
    kind: str
    element: etree._Element | None = field(default=None, repr=False)


NEXT_WORDS = re.compile(
    r"^\W*(next|more|older|load more|show more|suivant|weiter)\b[\w\s]{0,20}\W*$|^\s*[›»>→]+\s*$",
    re.IGNORECASE,
)
PREVIOUS_WORDS = re.compile(r"(prev|previous|newer|‹|«|←|back)", re.IGNORECASE)
PAGE_PARAM = re.compile(r"^(page|p|pg|paged|pagenum|page_num|offset|start)$", re.IGNORECASE)


def find_pagination(root: etree._Element, page_url: str) -> PaginationControl | None:
    """The link to the next page, by the strongest evidence first: rel=next, "Next" words, page numbers."""
    for finder in (_rel_next, _next_words, _numbered_next):
        found = finder(root, page_url)
        if found is not None and _same_site(found.url, page_url) and _strip_fragment(found.url) != page_url:
            return found
    return None


FIRST_WORDS = re.compile(r"^\W*(first|first page|1)\W*$", re.IGNORECASE)


def find_first_page(root: etree._Element, page_url: str) -> str | None:
    """On page N > 1 of a paginated listing, the URL of page 1 (a "1" or "First" link), else ``None``.

    Search hits and links often land in the middle of a listing; collecting from there would miss the
    pages before it.
    """
    if (page_number(page_url) or 1) <= 1:
        return None
    for element in root.iter("a"):
        url = _href(element, page_url)
        if url and _same_site(url, page_url) and FIRST_WORDS.match(_link_label(element)) \
                and (page_number(url) or 1) == 1 and _strip_fragment(url) != page_url:
            return url
    return None


def _strip_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def _same_site(url: str, page_url: str) -> bool:
    return urlparse(url).netloc in ("", urlparse(page_url).netloc)


def _href(element: etree._Element, page_url: str) -> str | None:
    href = (element.get("href") or "").strip()
    if not href or href.startswith(("javascript:", "mailto:", "#")):
        return None
    url = safe_urljoin(page_url, href)
    return url if is_parsable_url(url) else None


def _rel_next(root: etree._Element, page_url: str) -> PaginationControl | None:
    for element in root.iter("a", "link"):
        if "next" in (element.get("rel") or "").lower().split():
            url = _href(element, page_url)
            if url:
                return PaginationControl(
                    url=url, kind="rel-next", element=element if element.tag == "a" else None
                )
    return None


def _link_label(element: etree._Element) -> str:
    return element_text(element) or element.get("aria-label") or element.get("title") or ""


def _next_words(root: etree._Element, page_url: str) -> PaginationControl | None:
    for element in root.iter("a"):
        label = _link_label(element)
        if label and NEXT_WORDS.match(label) and not PREVIOUS_WORDS.search(label):
            url = _href(element, page_url)
            if url:
                return PaginationControl(url=url, kind="next-link", element=element)
    return None


def page_number(url: str) -> int | None:
    """The page number a URL asks for (``?page=3``, ``/page/3/``, ``/blog/3/``), if it says."""
    parsed = urlparse(url)
    for key, value in parse_qsl(parsed.query):
        if PAGE_PARAM.match(key) and value.isdigit():
            return int(value)
    match = re.search(r"/(?:page/)?(\d{1,3})/?$", parsed.path)
    return int(match.group(1)) if match else None


def _numbered_next(root: etree._Element, page_url: str) -> PaginationControl | None:
    current = page_number(page_url) or 1
    for element in root.iter("a"):
        label = element_text(element)
        url = _href(element, page_url)
        if url and label.isdigit() and int(label) == current + 1 and page_number(url) == current + 1:
            return PaginationControl(url=url, kind="page-number", element=element)
    return None
