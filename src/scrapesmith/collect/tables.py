"""Reading HTML data tables into keyed rows: the table tool agents use and generated programs call.

Keys come from each column's ``data-stat`` attribute when the site has one, else from its header text
(``<abbr title>`` spelled out), snake-cased. ``<time datetime>`` values are preferred over display text
so dates come out as ISO dates; footer rows (league averages, totals) are skipped.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree, html

from scrapesmith.collect.mapping import map_columns, name_score

_NON_WORD = re.compile(r"[^a-z0-9]+")
LINK_KEY = "detail_url"


def snake(text: str) -> str:
    return _NON_WORD.sub("_", text.lower()).strip("_")


def _header_keys(table: etree._Element) -> list[str]:
    cells = table.xpath("./thead/tr[last()]/th|./thead/tr[last()]/td")
    if not cells:
        first = table.xpath(".//tr[1]")
        cells = first[0].xpath("./th") if first else []
    keys = []
    for cell in cells:
        key = cell.get("data-stat") or snake(cell.text_content())
        keys.append(key or f"column_{len(keys) + 1}")
    return keys


def cell_value(cell: etree._Element) -> str:
    times = cell.xpath(".//time[@datetime]")
    if times:
        return times[0].get("datetime", "").strip()
    return " ".join(cell.text_content().split())


def table_rows(table: etree._Element, base_url: str | None = None) -> list[dict[str, str]]:
    """The body rows of ``table`` keyed by its header keys (cells carry their own ``data-stat`` first);
    with ``base_url``, each row's first link (the record's own page) as ``detail_url``."""
    keys = _header_keys(table)
    body = table.xpath("./tbody/tr") or table.xpath("./tr[position() > 1]")
    rows = []
    for tr in body:
        cells = tr.xpath("./th|./td")
        if not cells or len(cells) < max(1, len(keys) // 2):
            continue
        row = {}
        for index, cell in enumerate(cells):
            key = cell.get("data-stat") or (keys[index] if index < len(keys) else f"column_{index + 1}")
            row[key] = cell_value(cell)
        links = tr.xpath(".//a/@href") if base_url is not None else []
        if links:
            row[LINK_KEY] = urljoin(base_url, str(links[0]).strip())
        rows.append(row)
    return rows


def data_tables(tree: etree._Element) -> list[etree._Element]:
    """Tables with a header and at least two body rows (layout tables and small boxes excluded)."""
    return [t for t in tree.xpath("//table") if _header_keys(t) and len(table_rows(t)) >= 2]


def column_overlap(keys: list[str], wanted: list[str]) -> list[str]:
    """The wanted columns a table's keys can fill by name (:func:`scrapesmith.collect.mapping.name_score`)."""
    return [column for column in wanted if any(name_score(column, key) > 0 for key in keys)]


def match_column(keys: list[str], column: str) -> str | None:
    """The key best matching ``column`` by name, or ``None`` (never a key that changes its meaning)."""
    return map_columns([column], keys)[0].get(column)


def best_table(source: str | bytes, wanted: list[str]) -> etree._Element | None:
    tree = html.fromstring(source) if source else None
    if tree is None:
        return None
    tables = data_tables(tree)
    if not tables:
        return None
    return max(tables, key=lambda t: (len(column_overlap(_header_keys(t), wanted)), len(table_rows(t))))


def next_page_url(tree: etree._Element) -> str | None:
    """A pagination link: ``rel=next``, a ``.next`` control, or a link whose text starts with "Next"."""
    for xpath in ('//a[@rel="next"]/@href', '//a[contains(concat(" ", @class, " "), " next ")]/@href',
                  '//a[starts-with(normalize-space(.), "Next")]/@href'):
        found = tree.xpath(xpath)
        if found:
            return str(found[0])
    return None
