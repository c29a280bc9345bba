"""A few pages of a site reached from its landing page, read before the filter decides and the proposer asks.

The proposer of the seed sees the domain and, at best, the landing page; tasks then name what the landing page
promises ("the analytics dashboard") rather than what the site holds. Here the pipeline reads a few more pages
through the same fetcher (robots.txt, the address guard, politeness, the archive when one is set): the landing
page's links in order, then from each of those pages its first links that are not the landing page's own (the
navigation every page repeats), in turn along each chain, so a listing leads to its records. Pages that fail (robots, a
404) are counted with their reason and skipped. Only pages under the landing page's first folder on its host
are read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urljoin, urlsplit

from scrapesmith.dom import parse_html
from scrapesmith.web import FetchError, Page

#: Pages read besides the landing page.
EXPLORE_PAGES = 8
#: Of them, at most this many straight from the landing page's links (the rest further along those links).
FIRST_LEVEL = 2
#: With a random generator, the next link along a chain is one of the first this many new ones.
CHOICES = 6


@dataclass(frozen=True)
class SitePage:
    """One page read: its URL, how it was reached (link texts from the landing page) and its parsed tree."""

    url: str
    page: Page
    route: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    ambiguous: bool = False  # a link text of its route leads elsewhere too on the page it is clicked on

    @property
    def depth(self) -> int:
        return len(self.route)


@dataclass
class Exploration:
    """The landing page and the pages read from it; ``skipped`` holds each link that failed and why."""

    landing: SitePage
    pages: list[SitePage] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def all_pages(self) -> list[SitePage]:
        return [self.landing, *self.pages]


def page_links(page: Page) -> tuple[tuple[str, str], ...]:
    """``(text, absolute url)`` of every link with text, in document order, fragments dropped, de-duplicated."""
    if not page.is_html:
        return ()
    tree = parse_html(page.text, url=page.url)
    seen: dict[str, str] = {}
    for anchor in tree.iter("a"):
        href, text = anchor.get("href"), " ".join(" ".join(anchor.itertext()).split())
        if not href or not text or href.startswith(("mailto:", "javascript:", "tel:")):
            continue
        url = urldefrag(urljoin(page.url, href)).url
        seen.setdefault(url, text)
    return tuple((text, url) for url, text in seen.items())


def in_scope(url: str, landing_url: str) -> bool:
    """Same scheme and host, under the landing page's first folder (a site that lives under a path, as the demo
    web's do, stays there; a start page deeper in it still reaches the rest of it)."""
    here, root = urlsplit(url), urlsplit(landing_url)
    first = root.path.lstrip("/").split("/", 1)
    folder = f"/{first[0]}/" if len(first) == 2 and first[0] else "/"
    return (here.scheme, here.netloc) == (root.scheme, root.netloc) and here.path.startswith(folder)


def explore(fetcher: object, landing: Page, max_pages: int = EXPLORE_PAGES, first_level: int = FIRST_LEVEL,
            rng: random.Random | None = None) -> Exploration:
    """Read up to ``max_pages`` pages reached from ``landing``: ``first_level`` of its links, then, in turn
    along each of those chains, one link further that the landing page does not show (with ``rng``, one of
    the first :data:`CHOICES` such links, else the first), so a listing leads to its records."""
    start = SitePage(url=landing.url, page=landing, links=page_links(landing))
    found = Exploration(landing=start)
    seen = {landing.url}
    navigation = {url for _, url in start.links}

    def read(text: str, url: str, via: SitePage) -> SitePage | None:
        seen.add(url)
        try:
            page = fetcher.fetch(url)  # type: ignore[attr-defined]
        except FetchError as exc:
            found.skipped[url] = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
            return None
        if not page.is_html:
            found.skipped[url] = f"not a web page ({page.content_type})"
            return None
        read_page = SitePage(url=page.url, page=page, route=(*via.route, text), links=page_links(page))
        found.pages.append(read_page)
        return read_page

    chains: list[SitePage] = []
    for text, url in start.links:
        if len(chains) >= first_level or len(found.pages) >= max_pages:
            break
        if url not in seen and in_scope(url, landing.url) and (page := read(text, url, start)) is not None:
            chains.append(page)
    while chains and len(found.pages) < max_pages:
        parent = chains.pop(0)
        unread = [(text, url) for text, url in parent.links if url not in seen and in_scope(url, landing.url)]
        fresh = [(text, url) for text, url in unread if url not in navigation] or unread
        if not fresh:
            continue
        text, url = rng.choice(fresh[:CHOICES]) if rng is not None else fresh[0]
        page = read(text, url, parent)
        chains.append(page or parent)
    shortest_routes(found)
    return found


def shortest_routes(found: Exploration) -> None:
    """Give each page read the shortest route among the pages read (a record a listing links to is reached
    from the listing, not through the related records the chain went by)."""
    by_url = {page.url: page for page in found.all_pages}
    routes: dict[str, tuple[str, ...]] = {found.landing.url: ()}
    ambiguous: dict[str, bool] = {found.landing.url: False}
    queue = [found.landing]
    while queue:
        page = queue.pop(0)
        targets: dict[str, set[str]] = {}
        for text, url in page.links:
            targets.setdefault(text.casefold(), set()).add(url)
        for text, url in page.links:
            if url in by_url and url not in routes:
                routes[url] = (*routes[page.url], text)
                ambiguous[url] = ambiguous[page.url] or len(targets[text.casefold()]) > 1
                queue.append(by_url[url])
    found.pages = [SitePage(url=page.url, page=page.page, route=routes.get(page.url, page.route), links=page.links,
                            ambiguous=ambiguous.get(page.url, True)) for page in found.pages]
