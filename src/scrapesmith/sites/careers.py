"""Server-side filtered careers pages: one query route, every linked filter combination pre-rendered.

Two company sites filter jobs on the server through query parameters (with their own parameter names);
this module owns the filtering, the pre-rendering of all valid combinations, and the answers to
unlinked ones (an unknown category shows an empty list; a page past the end is a 404).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scrapesmith.sites.company_data import CompanyData
from scrapesmith.sites.html import chunk, page_count, query_path, slugify
from scrapesmith.sites.views import QueryRoute, Response, SiteBuild, html_response


@dataclass(frozen=True)
class CareersView:
    """One careers page as a site renders it: the active filters (slugs), the page and its jobs."""

    category: str
    location: str
    page: int
    pages: int
    total: int
    jobs: list[dict]

    def params(self, page: int | None = None, **changes: str) -> dict[str, str]:
        """Query parameters for a link from this view (filters kept, page 1 left implicit)."""
        values = {"category": self.category, "location": self.location, **changes}
        page = self.page if page is None else page
        return {**values, "page": "" if page == 1 else str(page)}


Renderer = Callable[[CareersView], str]


def _select(jobs: list[dict], category: str, location: str) -> list[dict]:
    return [
        j
        for j in jobs
        if (not category or slugify(j["category"]) == category)
        and (not location or slugify(j["location"]) == location)
    ]


def filter_url(path: str, names: dict[str, str], params: dict[str, str]) -> str:
    """A link to a careers view, with the site's own parameter names (e.g. ``team`` for category)."""
    return query_path(path, {names[k]: v for k, v in params.items()})


def _view(
    data: CompanyData, page_size: int | None, category: str, location: str, page: int
) -> CareersView | None:
    matching = _select(data.jobs, category, location)
    size = page_size or max(1, len(matching))
    pages = page_count(len(matching), size)
    if not 1 <= page <= pages:
        return None
    return CareersView(category, location, page, pages, len(matching), chunk(matching, size, page))


def add_filtered_careers(
    site: SiteBuild,
    path: str,
    data: CompanyData,
    names: dict[str, str],
    page_size: int | None,
    render: Renderer,
    not_found: str,
) -> None:
    """Register the careers route at ``path`` and pre-render every combination of filters and pages.

    ``names`` maps ``category``/``location``/``page`` to the site's parameter names.
    """

    def respond(params: dict[str, str]) -> Response:
        raw_page = params.get(names["page"], "1") or "1"
        page = int(raw_page) if raw_page.isdigit() else 0
        view = _view(
            data, page_size, params.get(names["category"], ""), params.get(names["location"], ""), page
        )
        return html_response(not_found, 404) if view is None else html_response(render(view))

    site.routes[path] = QueryRoute(tuple(names.values()), respond)
    for category in ["", *map(slugify, data.categories)]:
        for location in ["", *map(slugify, data.locations)]:
            view = _view(data, page_size, category, location, 1)
            for page in range(1, view.pages + 1):
                params = {"category": category, "location": location, "page": "" if page == 1 else str(page)}
                kinds = ("careers", "list") + (("filtered",) if category or location else ())
                site.add(
                    filter_url(path, names, params), respond({names[k]: v for k, v in params.items()}), *kinds
                )
