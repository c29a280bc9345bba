"""Search for the tool agent: a local full-text index of crawled pages standing in for web search.

``SearchEngine`` is the seam: a real search API only has to implement ``search(query, limit)``.
:class:`LocalSearchIndex` keeps pages in SQLite FTS5 (title, visible text) and ranks them with bm25.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lxml import html

_WORD = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class SearchHit:
    url: str
    title: str
    snippet: str
    score: float


class SearchEngine(Protocol):
    def search(self, query: str, limit: int = 5) -> list[SearchHit]: ...


def page_text(source: str) -> tuple[str, str]:
    """(title, visible text) of an HTML page; scripts and styles dropped."""
    try:
        tree = html.fromstring(source)
    except (ValueError, html.etree.ParserError):
        return "", ""
    for node in tree.xpath("//script|//style"):
        node.drop_tree()
    title = " ".join(tree.xpath("string(//title)").split())
    return title, " ".join(tree.text_content().split())


class LocalSearchIndex:
    """Pages indexed in an FTS5 table; ``path=None`` keeps the index in memory."""

    def __init__(self, path: Path | None = None) -> None:
        self._db = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS pages USING fts5(url UNINDEXED, title, body)")

    def add(self, url: str, source: str) -> None:
        title, body = page_text(source)
        self._db.execute("DELETE FROM pages WHERE url = ?", (url,))
        self._db.execute("INSERT INTO pages (url, title, body) VALUES (?, ?, ?)", (url, title, body))
        self._db.commit()

    def search(self, query: str, limit: int = 5) -> list[SearchHit]:
        words = [w for w in _WORD.findall(query) if len(w) > 1]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        rows = self._db.execute(
            "SELECT url, title, snippet(pages, 2, '[', ']', '…', 12), bm25(pages, 0.0, 5.0, 1.0) AS rank "
            "FROM pages WHERE pages MATCH ? ORDER BY rank LIMIT ?", (match, limit)).fetchall()
        return [SearchHit(url, title, snippet, -rank) for url, title, snippet, rank in rows]

    def text_of(self, url: str) -> str:
        row = self._db.execute("SELECT body FROM pages WHERE url = ?", (url,)).fetchone()
        return row[0] if row else ""

    def __len__(self) -> int:
        return self._db.execute("SELECT count(*) FROM pages").fetchone()[0]

    def close(self) -> None:
        self._db.close()
