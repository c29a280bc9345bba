"""Search for the tool agent: a local full-text index of crawled pages standing in for web search.

``SearchEngine`` is the seam: a real search API only has to implement ``search(query, limit)``.
:class:`LocalSearchIndex` keeps pages in SQLite FTS5 (title, visible text) and ranks them with bm25,
and the links between the pages it holds (which indexed pages link to a hit: the listing an entity's
own page is one row of).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import urldefrag, urljoin

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
    title, text, _links = _parsed(source, "")
    return title, text


def _parsed(source: str, url: str) -> tuple[str, str, set[str]]:
    """(title, visible text, the absolute URLs it links to) of an HTML page."""
    try:
        tree = html.fromstring(source)
    except (ValueError, html.etree.ParserError):
        return "", "", set()
    links = {urldefrag(urljoin(url, href))[0] for href in tree.xpath("//a/@href")} if url else set()
    for node in tree.xpath("//script|//style"):
        node.drop_tree()
    title = " ".join(tree.xpath("string(//title)").split())
    return title, " ".join(tree.text_content().split()), links - {url}


class LocalSearchIndex:
    """Pages indexed in an FTS5 table; ``path=None`` keeps the index in memory."""

    def __init__(self, path: Path | None = None) -> None:
        self._db = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS pages USING fts5(url UNINDEXED, title, body)")
        self._db.execute("CREATE TABLE IF NOT EXISTS links (source TEXT, target TEXT, PRIMARY KEY (source, target))")

    def add(self, url: str, source: str) -> None:
        title, body, links = _parsed(source, url)
        self._db.execute("DELETE FROM pages WHERE url = ?", (url,))
        self._db.execute("INSERT INTO pages (url, title, body) VALUES (?, ?, ?)", (url, title, body))
        self._db.execute("DELETE FROM links WHERE source = ?", (url,))
        self._db.executemany("INSERT OR IGNORE INTO links VALUES (?, ?)", [(url, link) for link in links])
        self._db.commit()

    def referrers(self, url: str, limit: int = 10) -> list[str]:
        """Indexed pages that link to ``url``, in the order they were indexed (nearer the seeds first)."""
        rows = self._db.execute("SELECT links.source FROM links JOIN pages ON pages.url = links.source "
                                "WHERE links.target = ? ORDER BY pages.rowid LIMIT ?", (url, limit)).fetchall()
        return [row[0] for row in rows]

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
