"""Records joined across pages: columns a listing lacks, read from each record's own page.

A standings table names each team and links to the team's page; "arena" and "head coach" are only on
that page. When the best table leaves requested columns unmapped and its rows link to pages of their
own, the tool probes the first linked pages for label-value pairs (``<dt>``/``<dd>``, two-cell table
rows ``<th>Label</th><td>value</td>``, "Label: value" lines); the columns those labels fill by name
(:mod:`scrapesmith.collect.mapping`) are joined to each row on its link, the record's key. The blueprint
says so, the program fetches each kept row's page once, and the rows keep that page as ``detail_url``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lxml import html

from scrapesmith.collect.mapping import map_columns
from scrapesmith.collect.tables import LINK_KEY, cell_value, snake
from scrapesmith.web import Fetcher, FetchError, Page

PROBES = 2
_LABELLED = re.compile(r"^\s*(?P<label>[A-Za-z][\w .'/%()-]{0,40}?)\s*:\s*(?P<value>\S.*)$")


def page_fields(source: str) -> dict[str, str]:
    """Label-value pairs of a record's page, keyed by the snake-cased label (first occurrence wins)."""
    if not source:
        return {}
    tree = html.fromstring(source)
    pairs: dict[str, str] = {}

    def add(label: str, value: str) -> None:
        key = snake(label)
        if key and value and key not in pairs:
            pairs[key] = value

    for dt in tree.xpath("//dl/dt"):
        dd = dt.xpath("following-sibling::dd[1]")
        if dd:
            add(dt.text_content(), cell_value(dd[0]))
    for tr in tree.xpath("//table//tr[count(th) = 1 and count(td) = 1]"):
        add(tr.xpath("./th")[0].text_content(), cell_value(tr.xpath("./td")[0]))
    for node in tree.xpath("//li|//p"):
        match = _LABELLED.match(" ".join(node.text_content().split()))
        if match:
            add(match.group("label"), match.group("value"))
    return pairs


def plan_join(fetcher: Fetcher, rows: list[dict[str, Any]], missing: list[str]) -> dict[str, str]:
    """``{column: label key}`` for the ``missing`` columns every probed record page fills; ``{}`` if none."""
    links = [r[LINK_KEY] for r in rows if r.get(LINK_KEY)][:PROBES]
    if not missing or not links:
        return {}
    found: dict[str, str] | None = None
    for link in links:
        try:
            fields = page_fields(fetcher.fetch(link).text)
        except FetchError:
            return {}
        mapping, _unmapped = map_columns(missing, list(fields), [fields])
        found = mapping if found is None else {c: k for c, k in found.items() if mapping.get(c) == k}
    return found or {}


def join_pages(rows: list[dict[str, Any]], join: dict[str, str], fetch: Callable[[str], Page],
               failures: list[dict[str, str]] | None = None) -> list[dict[str, Any]]:
    """Each row with the fields ``join`` names read from its own page (``detail_url``); a page that cannot
    be fetched leaves those fields empty and is recorded in ``failures``."""
    for row in rows:
        link = row.get(LINK_KEY)
        if not link:
            continue
        try:
            fields = page_fields(fetch(link).text)
        except FetchError as exc:
            if failures is not None:
                failures.append({"url": link, "item": "joined page", "error": str(exc)})
            continue
        for key in join.values():
            row.setdefault(key, fields.get(key))
    return rows
