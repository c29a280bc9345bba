"""The demo web as one object: every page of every site, their kinds, query routes and ground truth.

:func:`build_sites` renders everything up front (well under a second) so serving is a dict lookup and
the fetch benchmark measures the client, not the server. A *layout version* (``layout=N``) serves the same
records drawn differently — classes obfuscated, extra wrappers, blocks reordered, labels renamed
(:func:`scrapesmith.dom.mutate.layout_version`) — so a program forged on version 0 meets a redesign.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from urllib.parse import parse_qsl, unquote, urlsplit

from scrapesmith.dom import check_layout_version, layout_version
from scrapesmith.sites import acme, books, globex, northwind, proceedings, sports, stocks
from scrapesmith.sites.html import query_path
from scrapesmith.sites.root import NOT_FOUND_HTML, NOT_FOUND_JSON, root_pages
from scrapesmith.sites.views import Response, SiteBuild, SiteSummary, json_response

BUILDERS: tuple[Callable[[int], SiteBuild], ...] = (
    proceedings.build,
    stocks.build,
    sports.build,
    acme.build,
    northwind.build,
    globex.build,
    books.build_bookshelf,
    books.build_pagecraft,
)


class SiteCollection:
    """All pages of the demo web, keyed by path (``path?query`` for pre-rendered query pages)."""

    def __init__(self, seed: int, sites: list[SiteBuild], layout: int = 0) -> None:
        check_layout_version(layout)  # an unknown version is refused here, not on the first request
        self.seed = seed
        self.layout = layout
        self._drawn: dict[bytes, bytes] = {}
        self._sites = {site.name: site for site in sites}
        self.pages: dict[str, Response] = root_pages(sites)
        self._kinds: dict[str, tuple[str, ...]] = {path: ("root",) for path in self.pages}
        self._owner: dict[str, str] = {}
        self.routes = {}
        for site in sites:
            site.add(f"/{site.name}/_truth.json", json_response(site.truth), "truth")
            self.pages.update(site.pages)
            self._kinds.update(site.kinds)
            self._owner.update(dict.fromkeys(site.pages, site.name))
            self.routes.update(site.routes)

    @property
    def site_names(self) -> list[str]:
        return list(self._sites)

    def truth(self, site_name: str) -> dict:
        """A copy of the site's ground truth (the same JSON served at ``/<site>/_truth.json``)."""
        if site_name not in self._sites:
            raise KeyError(f"unknown demo site '{site_name}'; known: {', '.join(self._sites)}")
        return copy.deepcopy(self._sites[site_name].truth)

    def kinds(self, path: str) -> tuple[str, ...]:
        return self._kinds.get(path, ())

    def urls(self, site_name: str | None = None, kind: str | None = None) -> list[str]:
        """Paths of pre-rendered pages, optionally of one site and/or tagged with one kind."""
        if site_name is not None and site_name not in self._sites:
            raise KeyError(f"unknown demo site '{site_name}'")
        return [
            path
            for path, kinds in self._kinds.items()
            if (site_name is None or self._owner.get(path) == site_name) and (kind is None or kind in kinds)
        ]

    def respond(self, target: str) -> Response:
        """The response for a request target (``/path?query``), as the server sends it (in its layout)."""
        response = self._respond(target)
        if not self.layout or not response.content_type.startswith("text/html") or response.status != 200:
            return response
        if response.body not in self._drawn:
            text = layout_version(response.body.decode("utf-8"), self.layout)
            self._drawn[response.body] = text.encode("utf-8")
        return response._replace(body=self._drawn[response.body])

    def _respond(self, target: str) -> Response:
        parts = urlsplit(target)
        path = unquote(parts.path) or "/"
        route = self.routes.get(path)
        if route is not None:
            params = {k: v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k in route.params}
            return self.pages.get(query_path(path, params)) or route.render(params)
        if path in self.pages:
            return self.pages[path]
        if not path.endswith("/") and (path + "/" in self.pages or path + "/" in self.routes):
            location = path + "/" + (f"?{parts.query}" if parts.query else "")
            return Response(
                301, "text/plain; charset=utf-8", b"Moved Permanently\n", (("Location", location),)
            )
        return NOT_FOUND_JSON if "/api/" in path else NOT_FOUND_HTML

    def describe(self) -> list[SiteSummary]:
        """One summary per site (title, kind, entry path, page count, record counts) for tables."""
        summaries = []
        for name, site in self._sites.items():
            records = {
                key: len(value)
                for key, value in site.truth.items()
                if isinstance(value, list) and value and isinstance(value[0], dict)
            }
            summaries.append(
                SiteSummary(
                    name,
                    site.title,
                    site.category,
                    site.description,
                    site.markup,
                    f"/{name}/",
                    len(site.pages),
                    records,
                )
            )
        return summaries


def build_sites(seed: int = 7, layout: int = 0) -> SiteCollection:
    """Render the whole demo web from ``seed``; the same seed always gives byte-identical pages. ``layout``
    picks a layout version (0: the original; the records are the same in every version)."""
    return SiteCollection(seed, [build(seed) for build in BUILDERS], layout)
