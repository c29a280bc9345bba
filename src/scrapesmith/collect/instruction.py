"""Reading an instruction without a model: start URL, requested columns, keywords, dates and names.

These parses give the plan agent its suggestion and make ``--llm none`` work for instructions that name
a start URL and columns ("… from http://host/list/ with columns title, authors, url").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrapesmith.collect.tables import snake

_URL = re.compile(r"https?://[^\s<>\"']+")
_COLUMNS = re.compile(r"\b(?:columns?|fields?|attributes?)\s*[:=]?\s*(?P<list>[^.;]+)", re.IGNORECASE)
_WITH = re.compile(r"\bwith (?:their |its |the )?(?P<list>[^.;]+)", re.IGNORECASE)
_TAIL = re.compile(r"\s+(?:from|on|at|in)\s+(?:https?://\S+|the\b).*$", re.IGNORECASE)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_STOP = frozenset(["a", "an", "the", "of", "for", "and", "or", "to", "from", "with", "in", "on", "at", "all", "each", "every", "by", "as", "is", "are", "be", "collect", "gather", "get", "build", "make", "dataset", "data", "table", "list", "columns", "column", "fields", "field", "include", "including"])


@dataclass
class ParsedInstruction:
    start_url: str | None
    columns: list[str]
    keywords: list[str] = field(default_factory=list)
    dates: list[str] = field(default_factory=list)


def _split(text: str) -> list[str]:
    text = _TAIL.sub("", _URL.sub("", text))
    parts = re.split(r",|\band\b", text)
    return [snake(p) for p in parts if snake(p)]


def parse_instruction(instruction: str) -> ParsedInstruction:
    urls = [u.rstrip(".,;)") for u in _URL.findall(instruction)]
    match = _COLUMNS.search(instruction) or _WITH.search(instruction)
    columns = list(dict.fromkeys(_split(match.group("list")))) if match else []
    text = _URL.sub(" ", instruction)
    words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", text) if w.lower() not in _STOP]
    column_words = {w for c in columns for w in c.split("_")}
    keywords = list(dict.fromkeys(w for w in words if w.lower() not in column_words))
    return ParsedInstruction(urls[0] if urls else None, columns, keywords, _DATE.findall(instruction))
