"""Which field of a source fills which requested column: by name similarity, then by values.

Names compare as word sets after splitting ``camelCase``, punctuation and spaces and spelling out common
abbreviations, so ``adj_close``, ``adjClose``, ``"Adj. Close"`` and ``adjusted_close`` are one name. A
field may carry words the column lacks (``title`` <- ``paper_title``) but never a qualifier that changes
the quantity (``open`` is not ``adj_open``, ``points`` is not ``opp_points``). A column no name fits is
filled by a field whose name means the same (the offline sentence embeddings: ``cost`` <- ``price``), else
by values only when it says what its values are (a date, a link) and exactly one free field holds such values. Anything else stays unmapped, is reported, and is never filled from a wrong field. The same
mapping serves tables, list records and JSON records.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from scrapesmith.collect.filters import parse_date
from scrapesmith.induce import recogniser

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")
ABBREVIATIONS = {
    "adj": "adjusted", "pct": "percent", "perc": "percent", "div": "dividend", "avg": "average",
    "num": "number", "qty": "quantity", "vol": "volume", "amt": "amount", "desc": "description",
    "addr": "address", "yr": "year", "opp": "opponent", "min": "minimum", "max": "maximum", "prev": "previous",
    "chg": "change", "tot": "total", "href": "url", "link": "url", "uri": "url", "pts": "points",
}
#: words that change what a number means: a field that adds one is another quantity
QUALIFIERS = frozenset({"adjusted", "opponent", "minimum", "maximum", "average", "total", "previous", "next",
                        "change", "percent", "per", "rank", "cumulative", "net"})
_DATE_WORDS = frozenset({"date", "day", "published", "posted", "updated", "created"})
_URL_WORDS = frozenset({"url", "website", "homepage"})


def words(name: str) -> tuple[str, ...]:
    """The words of a field or column name, abbreviations spelled out (``adjClose`` -> adjusted, close)."""
    spaced = _CAMEL.sub(" ", str(name)).lower().replace("%", " percent ")
    return tuple(ABBREVIATIONS.get(w, w) for w in _WORD.findall(spaced))


def name_score(column: str, key: str) -> float:
    """1.0 for the same words; less for a field with extra plain words; 0.0 when it misses a word of the
    column or adds a qualifier."""
    want, have = set(words(column)), set(words(key))
    if not want or not want <= have:
        return 0.0
    extra = have - want
    if extra & QUALIFIERS:
        return 0.0
    return 1.0 / (1 + len(extra))


def _is_date(value: Any) -> bool:
    """A full date, or a date as pages print one ("June 2010", "03/2011"): induce's date recogniser."""
    text = str(value).strip()
    if _YEAR.fullmatch(text):  # "2010" (or 2010 typed as a number): a book's publication date as many pages print it
        return True
    if not text or text.replace(".", "").isdigit():
        return False
    return parse_date(text) is not None or bool(_DATE_SHAPE(text))


_YEAR = re.compile(r"(1[5-9]|20)\d\d")
_DATE_SHAPE = recogniser("date") or (lambda text: False)


def _is_url(value: Any) -> bool:
    return str(value).strip().startswith(("http://", "https://", "/"))


def _value_kind(column: str) -> str | None:
    named = set(words(column))
    if named & _DATE_WORDS:
        return "date"
    if named & _URL_WORDS:
        return "url"
    return None


def _filled(value: Any) -> bool:
    return value is not None and str(value).strip() != ""


def map_columns(columns: Sequence[str], keys: Sequence[str], rows: Sequence[dict[str, Any]] = (),
                ) -> tuple[dict[str, str], list[str]]:
    """``(field_map, unmapped)``: the best field per column by name (each field used once, best pairs
    first), then by values for columns that name their kind; the columns left over are ``unmapped``."""
    pairs = sorted(((name_score(c, k), -len(k), c, k) for c in columns for k in keys), reverse=True)
    field_map: dict[str, str] = {}
    used: set[str] = set()
    for score, _length, column, key in pairs:
        if score > 0 and column not in field_map and key not in used:
            field_map[column] = key
            used.add(key)
    _map_by_meaning([c for c in columns if c not in field_map], [k for k in keys if k not in used], field_map, used)
    _map_naming_column(columns, keys, field_map, used)
    for column in columns:
        kind = _value_kind(column)
        if column in field_map or kind is None:
            continue
        test = _is_date if kind == "date" else _is_url
        fits = [k for k in keys if k not in used and any(_filled(r.get(k)) for r in rows)
                and all(test(r.get(k)) for r in rows if _filled(r.get(k)))]
        if len(fits) == 1:
            field_map[column] = fits[0]
            used.add(fits[0])
    return field_map, [c for c in columns if c not in field_map]


MEANS_SAME = 0.6
"""A column and a field whose names mean the same this much (cosine of the offline sentence embeddings the
field ranker uses: "cost" and "price" 0.74, "homepage" and "link" 0.64; "title" and "name" 0.43) are paired
when no name fits: the column a user names is matched by meaning, not only by its exact words."""


def _map_by_meaning(columns: Sequence[str], keys: Sequence[str], field_map: dict[str, str], used: set[str]) -> None:
    """Pair the columns no name fits with free fields whose names mean the same, best pairs first; a qualifier
    on one side only (``adjusted high`` and ``high``) makes another quantity, never a pair."""
    from scrapesmith.llm import embeddings_available, meaning_similarity

    if not columns or not keys or not embeddings_available():
        return
    pairs = []
    for column in columns:
        for key in keys:
            if (set(words(key)) ^ set(words(column))) & QUALIFIERS or not words(column) or not words(key):
                continue
            score = meaning_similarity(" ".join(words(column)), " ".join(words(key)))
            if score >= MEANS_SAME:
                pairs.append((score, column, key))
    for _score, column, key in sorted(pairs, reverse=True):
        if column not in field_map and key not in used:
            field_map[column] = key
            used.add(key)


NAMING_WORDS = frozenset({"title", "name", "heading", "headline"})


def _map_naming_column(columns: Sequence[str], keys: Sequence[str], field_map: dict[str, str], used: set[str]) -> None:
    """The first column, when nothing fits it, names the records ("course" in "course, url"): it takes the
    source's free field that holds each record's name or title, when there is exactly one."""
    if not columns or columns[0] in field_map or _value_kind(columns[0]) is not None:
        return
    naming = [k for k in keys if k not in used and set(words(k)) & NAMING_WORDS and not set(words(k)) & QUALIFIERS]
    if len(naming) == 1:
        field_map[columns[0]] = naming[0]
        used.add(naming[0])


def plausible(column: str, values: Sequence[Any]) -> bool:
    """The values can be what the column's name says (dates for a date, links for a url)."""
    kind = _value_kind(column)
    filled = [v for v in values if _filled(v)]
    if kind is None or not filled:
        return True
    test = _is_date if kind == "date" else _is_url
    return all(test(v) for v in filled)
