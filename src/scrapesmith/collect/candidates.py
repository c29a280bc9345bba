"""The tool agent's extraction tools: each proposes a candidate access path with a sample it really ran.

* list — the heuristic ``lists`` recorder on the page, replayed on that page only;
* table — the data table whose header keys best fit the columns, joined with each row's own page for
  the columns only that page holds (:mod:`scrapesmith.collect.joins`);
* rest — endpoints documented on crawled pages (``GET /path?a=..&b=..``), called with parameters read
  from the instruction (names, ISO dates).
A candidate says which requested columns its sample actually fills; the blueprint agent chooses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin

from scrapesmith.collect.joins import PROBES, join_pages, plan_join
from scrapesmith.collect.mapping import map_columns, plausible
from scrapesmith.collect.tables import best_table, table_rows
from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import is_empty
from scrapesmith.lists import HttpRuntime, record_heuristic, replay
from scrapesmith.web import Fetcher, FetchError

_ENDPOINT = re.compile(r"GET\s+(?P<path>/[\w/.-]+)(?:\?(?P<query>[^\s]+))?")
_TICKER = re.compile(r"\b[A-Z]{2,5}\b")


@dataclass
class Found:
    """One tried access path: its sample rows, the key each column maps to, and how to rerun it."""

    kind: str
    url: str
    rows: list[dict[str, Any]]
    field_map: dict[str, str]
    list_program: dict[str, Any] | None = None
    api_params: dict[str, str] = field(default_factory=dict)
    records_key: str | None = None
    #: columns read from each row's own page (column -> label there), verified on the probed pages
    join: dict[str, str] = field(default_factory=dict)

    def unmapped(self, columns: list[str]) -> list[str]:
        """Requested columns no field of this source fills (reported, never filled from another field)."""
        return [c for c in columns if c not in self.field_map]

    def filled(self, columns: list[str]) -> list[str]:
        half = max(1, len(self.rows) // 2)
        return [c for c in columns if c in self.join or (c in self.field_map and sum(
            1 for r in self.rows if not is_empty(r.get(self.field_map[c]))) >= half)]

    @property
    def keys(self) -> list[str]:
        return [k for k in (self.rows[0] if self.rows else {}) if k not in ("source_url", "detail_url", "fetched_at", "program_id")]


def list_candidate(fetcher: Fetcher, url: str, columns: list[str],
                   examples: dict[str, str] | None = None) -> Found | None:
    try:
        recording = record_heuristic(HttpRuntime(fetcher), url, "all records", columns, examples)
        result = replay(recording.program, HttpRuntime(fetcher), max_pages=1)
    except (ScrapesmithError, ValueError):
        return None
    if not result.rows:
        return None
    program = json.loads(recording.program.to_json())
    mapping = {c: c for c in columns if plausible(c, [r.get(c) for r in result.rows])}
    return Found("list", url, result.rows, mapping, list_program=program)


def table_candidate(fetcher: Fetcher, url: str, columns: list[str]) -> Found | None:
    try:
        page = fetcher.fetch(url)
    except FetchError:
        return None
    table = best_table(page.text, columns) if page.is_html else None
    if table is None:
        return None
    rows = table_rows(table, page.url)
    keys = list(dict.fromkeys(k for r in rows for k in r))
    mapping, unmapped = map_columns(columns, keys, rows)
    if not mapping:
        return None
    join = plan_join(fetcher, rows, unmapped)
    if join:
        join_pages(rows[:PROBES], join, fetcher.fetch)
    return Found("table", url, rows, {**mapping, **join}, join=join)


class PageTools:
    """The list and table tools over one fetcher, each page tried once per set of columns: the research
    agents weigh the same pages more than once (the first search hit, the pages below the current one,
    the page finally proposed), and each try records and replays a list program."""

    def __init__(self, fetcher: Fetcher, examples: dict[str, str] | None = None) -> None:
        self.fetcher = fetcher
        self.examples = examples or {}
        self._found: dict[tuple[str, tuple[str, ...]], list[Found]] = {}

    def found(self, url: str, columns: list[str]) -> list[Found]:
        """What the list and table tools find on ``url`` for ``columns`` (a fresh list each call). A page
        that cannot be fetched finds nothing and is not remembered: a later call tries it again (the research
        fetcher remembers the pages it read, so checking the page first costs no second request)."""
        key = (url, tuple(columns))
        if key not in self._found:
            try:
                self.fetcher.fetch(url)
            except FetchError:
                return []
            tried = (list_candidate(self.fetcher, url, columns, self.examples),
                     table_candidate(self.fetcher, url, columns))
            self._found[key] = [item for item in tried if item is not None]
        return list(self._found[key])


def documented_endpoints(base_url: str, text: str) -> list[tuple[str, list[str]]]:
    """``(absolute URL, parameter names)`` of each ``GET /path?name=…`` an API page documents."""
    found = []
    for match in _ENDPOINT.finditer(text):
        names = [part.split("=")[0] for part in (match.group("query") or "").replace("&amp;", "&").split("&") if part]
        found.append((urljoin(base_url, match.group("path")), names))
    return found


def guess_params(names: list[str], instruction: str, dates: list[str]) -> dict[str, str] | None:
    """Parameter values from the instruction; ``None`` when a parameter cannot be filled."""
    params: dict[str, str] = {}
    date_names = [n for n in names if n in ("start", "end", "from", "to", "date", "start_date", "end_date")]
    for name, value in zip(date_names, dates, strict=False):
        params[name] = value
    for name in names:
        if name in params or name in date_names:
            continue
        tickers = _TICKER.findall(instruction)
        if name in ("symbol", "ticker", "stock", "code") and tickers:
            params[name] = tickers[0]
        else:
            return None
    return params


def rest_candidates(fetcher: Fetcher, doc_pages: list[tuple[str, str]], columns: list[str], instruction: str,
                    dates: list[str]) -> list[Found]:
    found = []
    for base_url, text in doc_pages:
        for endpoint, names in documented_endpoints(base_url, text):
            params = guess_params(names, instruction, dates)
            if params is None:
                continue
            target = f"{endpoint}?{urlencode(params)}" if params else endpoint
            try:
                answer = json.loads(fetcher.fetch(target).text)
            except (FetchError, ValueError):
                continue
            key, records = _records(answer)
            if records:
                keys = list(records[0])
                mapping, _unmapped = map_columns(columns, keys, records)
                if mapping:
                    found.append(Found("rest", endpoint, records, mapping, api_params=params, records_key=key))
    return found


def _records(answer: Any) -> tuple[str | None, list[dict]]:
    if isinstance(answer, list):
        return None, [r for r in answer if isinstance(r, dict)]
    if isinstance(answer, dict):
        for key, value in answer.items():
            if isinstance(value, list) and value and isinstance(value[0], dict):
                return key, value
    return None, []
