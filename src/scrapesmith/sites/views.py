"""Data shapes of the demo web: a response, one built site, a site summary.

Kept apart from the builders and the server so that consumers (benchmarks, the demo command, tests)
can import the shapes without pulling in any rendering code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class Response(NamedTuple):
    """One pre-rendered HTTP response; a plain tuple so it can be unpacked as (status, type, body, headers)."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


HTML = "text/html; charset=utf-8"
JSON = "application/json"


def html_response(text: str, status: int = 200) -> Response:
    return Response(status, HTML, text.encode("utf-8"))


def json_response(data: Any, status: int = 200) -> Response:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(status, JSON, body)


QueryRenderer = Callable[[dict[str, str]], Response]


@dataclass(frozen=True)
class QueryRoute:
    """A path whose response depends on query parameters (filters, pagination, API arguments).

    ``params`` lists the parameters the route honours; others are ignored, as real sites ignore
    tracking parameters. Valid combinations are also pre-rendered into the page dict, so the route is
    only called for combinations nobody linked to (e.g. an API date range).
    """

    params: tuple[str, ...]
    render: QueryRenderer


@dataclass
class SiteBuild:
    """Everything one site builder produces: pages, their kinds, query routes and the ground truth."""

    name: str
    title: str
    category: str
    description: str
    markup: str
    pages: dict[str, Response] = field(default_factory=dict)
    kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    routes: dict[str, QueryRoute] = field(default_factory=dict)
    truth: dict[str, Any] = field(default_factory=dict)

    def add(self, path: str, response: Response, *kinds: str) -> None:
        self.pages[path] = response
        self.kinds[path] = kinds

    def add_html(self, path: str, text: str, *kinds: str) -> None:
        self.add(path, html_response(text), *kinds)


@dataclass(frozen=True)
class SiteSummary:
    """What ``SiteCollection.describe()`` reports per site: enough for a table in the demo."""

    name: str
    title: str
    category: str
    description: str
    markup: str
    entry_path: str
    page_count: int
    records: dict[str, int]
