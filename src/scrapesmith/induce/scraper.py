"""The library's scraper: autoscraper's ``build`` / ``get_result`` over the objects the command line uses.

::

    scraper = Scraper.from_examples(saved_pages, {"title": "The Left Hand of Darkness"})
    scraper = Scraper.from_fields(saved_pages, {"title": "the book's title"})
    row = scraper.extract("https://example.org/book/2")        # or a path, HTML text, bytes, a Page
    scraper.save("books.json"); Scraper.load("books.json")     # the spec `scrapesmith run` reads

A :class:`Scraper` is a :class:`~scrapesmith.induce.views.ScraperSpec` (what ``scrapesmith induce`` writes)
compiled once, plus how to get pages: URLs through the polite, guarded :class:`~scrapesmith.web.HttpFetcher`
(private addresses only for ``allow_hosts``), paths and ``file://`` URLs from the disk. A page is given as
a URL, a path, HTML text, bytes or a fetched :class:`~scrapesmith.web.Page`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lxml import etree

from scrapesmith.dom import parse_html
from scrapesmith.induce.examples import Example, induce_from_examples
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.profile import with_profile
from scrapesmith.induce.scope import with_scope
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.views import FieldRequest, ScraperSpec
from scrapesmith.io import timestamp
from scrapesmith.llm import LLM
from scrapesmith.web import FileFetcher, HttpFetcher, Page, RoutingFetcher

PageLike = str | bytes | Path | Page
_FETCHED = ("http://", "https://", "file://")


class Scraper:
    """A forged field scraper: seed pages and what to find in, one row per page out, no model at run time."""

    def __init__(self, spec: ScraperSpec, *, allow_hosts: Sequence[str] = (), delay: float | None = None) -> None:
        self.spec = spec
        self.allow_hosts = list(allow_hosts)
        self.delay = delay
        self._compiled = CompiledSpec(spec)

    @classmethod
    def from_fields(cls, pages: Iterable[PageLike], fields: Mapping[str, str], *, method: str = "heuristic",
                    llm: LLM | None = None, allow_hosts: Sequence[str] = (), delay: float | None = None) -> Scraper:
        """Induce a scraper for ``fields`` (name -> what it is, in words) from seed ``pages``; ``method`` and
        ``llm`` as ``scrapesmith induce --method/--llm`` (the heuristic needs no model)."""
        trees, names = _seeds(pages, allow_hosts, delay)
        requests = [FieldRequest(name, instruction) for name, instruction in fields.items()]
        spec = induce_scraper(requests, trees, method=method, llm=llm, seed_names=names)
        return cls(with_profile(spec, trees), allow_hosts=allow_hosts, delay=delay)

    @classmethod
    def from_examples(cls, pages: Iterable[PageLike], examples: Mapping[str, str], *,
                      allow_hosts: Sequence[str] = (), delay: float | None = None) -> Scraper:
        """Learn a scraper from values seen on the first page (name -> value), checked on the others. No model."""
        trees, names = _seeds(pages, allow_hosts, delay)
        learnt = induce_from_examples([Example(name, value) for name, value in examples.items()], trees,
                                      seed_names=names)
        return cls(with_profile(with_scope(learnt, trees), trees), allow_hosts=allow_hosts, delay=delay)

    def extract(self, page: PageLike) -> dict[str, Any]:
        """One page's row: each field's value (a list for a multi-valued field), then ``source_url``,
        ``fetched_at`` and ``program_id``, as ``scrapesmith run`` writes it. A page that cannot be fetched
        raises :class:`~scrapesmith.web.FetchError`."""
        return self.extract_all([page])[0]

    def extract_all(self, pages: Iterable[PageLike]) -> list[dict[str, Any]]:
        """:meth:`extract` for each page, through one fetcher (one politeness delay per host for them all)."""
        with _fetcher(self.allow_hosts, self.delay) as fetcher:
            rows = []
            for page in pages:
                source, content = _resolve(page, fetcher)
                row = self._compiled.row(content)
                at = page.fetched_at if isinstance(page, Page) else None
                rows.append({**row, "source_url": source, "fetched_at": timestamp(at),
                             "program_id": self.spec.spec_id})
            return rows

    def save(self, path: str | Path) -> Path:
        """Write the spec (``scrapesmith run PATH PAGES`` runs it; ``scrapesmith export`` exports it)."""
        return self.spec.save(Path(path))

    @classmethod
    def load(cls, path: str | Path, *, allow_hosts: Sequence[str] = (), delay: float | None = None) -> Scraper:
        """A scraper from a spec file (made by :meth:`save` or ``scrapesmith induce``)."""
        return cls(ScraperSpec.load(Path(path)), allow_hosts=allow_hosts, delay=delay)

    def __repr__(self) -> str:
        return f"Scraper({self.spec.spec_id}: {', '.join(f.name for f in self.spec.fields)})"


def _fetcher(allow_hosts: Sequence[str], delay: float | None) -> RoutingFetcher:
    return RoutingFetcher(http=HttpFetcher(allow_hosts=list(allow_hosts), delay=delay), file=FileFetcher())


def _resolve(page: PageLike, fetcher: RoutingFetcher) -> tuple[str, str | bytes]:
    """``(where it came from, its text or bytes)``: a Page as it is, a URL or a path fetched, else HTML."""
    if isinstance(page, Page):
        return page.url, page.text
    if isinstance(page, Path) or (isinstance(page, str) and (page.startswith(_FETCHED) or _is_file(page))):
        fetched = fetcher.fetch(str(page))
        return fetched.url, fetched.text
    return "", page


def _is_file(text: str) -> bool:
    return "<" not in text and len(text) < 4096 and Path(text).is_file()


def _seeds(pages: Iterable[PageLike], allow_hosts: Sequence[str], delay: float | None,
           ) -> tuple[list[etree._Element], list[str]]:
    trees, names = [], []
    with _fetcher(allow_hosts, delay) as fetcher:
        for index, page in enumerate(pages):
            source, content = _resolve(page, fetcher)
            trees.append(parse_for_replay(content) if isinstance(content, str) else parse_html(content))
            names.append(source or f"page {index + 1}")
    return trees, names
