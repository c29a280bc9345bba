"""Where a value sits on its page: in the page's own record, or in chrome around it.

A detail page holds one record and a lot of furniture: navigation, filter and facet menus, breadcrumbs,
footers, and "related items" sidebars that repeat the record's own fields for other records (another
book's price, another book's publisher). A candidate whose values come from there is not the field, so
the ranking discounts it. Two kinds of evidence, both general:

* *markup that says chrome*: ``nav``/``footer``/``aside`` elements, ARIA landmark roles, and class or id
  words such as ``breadcrumb``, ``facet``, ``filter``, ``sidebar``, ``related``, ``recommendations``;
* *a region that links to other detail pages*: an element (not holding the page's main heading) with two
  or more children of one tag (items) each linking to a page whose path has the shape of this page's own
  path (``/product/978…`` on ``/product/978…``): a list of other records, whatever its markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree

CHROME_TAGS = frozenset({"nav", "footer", "aside"})
SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"})
CHROME_WORDS = frozenset({
    "nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs", "crumbs", "footer", "sidebar",
    "facet", "facets", "filter", "filters", "refine", "refinements", "related", "recommended",
    "recommendations", "recs", "carousel", "upsell", "crosssell", "similar",
})
RELATED_LINKS = 2


def _words(value: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", value)
    return {w for w in re.split(r"[^a-zA-Z]+", spaced.lower()) if w}


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def hidden_markup(element: etree._Element) -> str | None:
    """Why ``element`` is not shown at all: a ``hidden`` attribute, ``aria-hidden``, or an inline style that
    hides it. Hidden blocks hold pop-ups and templates for other records (another edition's publisher)."""
    if element.get("hidden") is not None or (element.get("aria-hidden") or "").lower() == "true":
        return "hidden"
    return "hidden by style" if _HIDDEN_STYLE.search(element.get("style") or "") else None


def chrome_markup(element: etree._Element) -> str | None:
    """Why ``element`` itself is page chrome (or hidden) by its markup, or None."""
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in CHROME_TAGS:
        return tag
    if tag == "header" and not any(a.tag in SECTIONING for a in element.iterancestors()):
        return "header (the site's banner)"  # HTML's implicit banner role: a header outside any section
    hidden = hidden_markup(element)
    if hidden:
        return hidden
    role = (element.get("role") or "").lower()
    if role in CHROME_ROLES:
        return f"role={role}"
    words = _words(f"{element.get('class') or ''} {element.get('id') or ''}") & CHROME_WORDS
    return f"class {min(words)}" if words else None


def own_url(root: etree._Element, name: str = "") -> str | None:
    """The page's own URL: its name when that is a URL, else ``<base href>``, canonical link or ``og:url``."""
    if name.startswith(("http://", "https://")):
        return name
    for xpath in ("//base/@href", "//link[@rel='canonical']/@href", "//meta[@property='og:url']/@content"):
        found = root.xpath(xpath)
        if found and str(found[0]).startswith(("http://", "https://")):
            return str(found[0])
    return None


def _shape(url: str) -> tuple[str, tuple[str, ...]]:
    parts = urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    return parts.netloc, tuple(segments[:-1]) if segments else ("",)


def _same_kind_of_name(page: str, target: str) -> bool:
    """Is ``target`` (a last path segment) a name of the same kind as ``page``'s? ``review-158174.html`` and
    ``review-99.html`` are; ``restaurants-cuisine-32820.html`` is a listing beside them, not another review.
    A script name without digits (``spec.aspx``) names a kind of page: its records differ by query."""
    page, target = page.lower(), target.lower()
    if re.search(r"\d", page):
        return re.sub(r"\d+", "#", page) == re.sub(r"\d+", "#", target)
    if "." in page:
        return page == target
    return "." not in target


def detail_like(href: str, page_url: str) -> bool:
    """Does ``href`` point to another page shaped like ``page_url`` (same host and folder, a name of the
    same kind, another page)?"""
    target = urljoin(page_url, href.strip())
    page_parts, target_parts = urlsplit(page_url), urlsplit(target)
    page_name = page_parts.path.rstrip("/").rsplit("/", 1)[-1]
    target_name = target_parts.path.rstrip("/").rsplit("/", 1)[-1]
    if target_parts.path.rstrip("/") == page_parts.path.rstrip("/"):
        # the same page in another view (a tab, a sort), unless a script's query names the record
        # (``spec.aspx?model=A6``): then another query is another record
        return target_parts.query != page_parts.query and "." in page_name and not re.search(r"\d", page_name)
    return (_shape(target) == _shape(page_url) and bool(page_parts.path.strip("/"))
            and _same_kind_of_name(page_name, target_name))


@dataclass
class PageRegions:
    """Chrome and related-record regions of one page, computed once and asked per value node."""

    root: etree._Element
    heading: etree._Element | None = None
    url: str | None = None
    _related: set[etree._Element] = field(default_factory=set)
    _record: set[etree._Element] = field(default_factory=set)
    _cache: dict[etree._Element, str | None] = field(default_factory=dict)

    @classmethod
    def of(cls, root: etree._Element, heading: etree._Element | None, url: str | None) -> PageRegions:
        regions = cls(root, heading, url)
        regions._record = {heading, *heading.iterancestors()} if heading is not None else set()
        if url and heading is not None:  # without the record's heading, no region can be told from it
            holders: dict[etree._Element, set[etree._Element]] = {}
            for link in root.iter("a"):
                href = link.get("href")
                if href and not href.startswith(("#", "javascript:")) and detail_like(href, url):
                    child = link
                    for ancestor in link.iterancestors():
                        holders.setdefault(ancestor, set()).add(child)
                        child = ancestor
            regions._related = {e for e, items in holders.items()
                                if len(items) >= RELATED_LINKS and len({i.tag for i in items}) == 1
                                and e not in regions._record and e.tag not in ("html", "body")}
        return regions

    def reason(self, element: etree._Element) -> str | None:
        """Why ``element`` is outside the page's own record (chrome or another record), or None."""
        if element in self._cache:
            return self._cache[element]
        why = None
        for node in (element, *element.iterancestors()):
            if node in self._record:  # a container of the main heading holds the record, whatever its class
                break
            if node in self._related:
                why = "links to other detail pages"
                break
            markup = chrome_markup(node)
            if markup:
                why = f"page chrome ({markup})"
                break
        self._cache[element] = why
        return why
