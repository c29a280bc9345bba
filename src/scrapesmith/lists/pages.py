"""A list program as a program of a scaled run (:mod:`scrapesmith.scale`): every start page one replay.

The run fetches each start page (so resume, ``--since`` and robots.txt work as for any URL); the replay
starts from that page and reads the rest (pagination, detail pages) through the worker's fetcher. A detail
page that failed inside the replay becomes an error row, so the dataset shows every loss. Programs that
need a model (``AnswerQuestion``) or a browser do not run this way: they are refused before any work.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.replay import replay
from scrapesmith.lists.runtime import HttpRuntime
from scrapesmith.lists.views import ListProgram
from scrapesmith.web import Fetcher, Page, SavedPages


class NotScalable(ScrapesmithError):
    """A list program that cannot be spread over many start pages."""


class _StartingWith:
    """A fetcher that answers the start page the run already fetched, and fetches everything else."""

    def __init__(self, page: Page, inner: Fetcher) -> None:
        self.page = page
        self.inner = inner

    def fetch(self, url: str) -> Page:
        if url in (self.page.url, self.page.requested_url):
            return self.page
        return self.inner.fetch(url)


@dataclass
class ListPages:
    program: ListProgram
    max_pages: int | None = None

    def __post_init__(self) -> None:
        if any(step.action == "AnswerQuestion" for step in self.program.steps):
            raise NotScalable("this list program asks a model (AnswerQuestion columns): replay it one start page "
                              "at a time")
        if self.program.runtime == "browser":
            raise NotScalable("this list program needs a browser: replay it one start page at a time")

    @property
    def program_id(self) -> str:
        return self.program.program_id

    @property
    def columns(self) -> list[str]:
        return list(self.program.columns)

    @property
    def schema(self) -> dict[str, str] | None:
        return dict(self.program.column_types) or None

    def rows(self, page: Page, fetcher: Fetcher) -> list[dict[str, Any]]:
        if page.via == "file":  # a saved start page: its links stay in its folder (web.SavedPages)
            fetcher = SavedPages(fetcher, Path(url2pathname(urlsplit(page.url).path)).parent, self.program.base_url)
        result = replay(self.program, HttpRuntime(_StartingWith(page, fetcher)),
                        start_url=page.requested_url or page.url, max_pages=self.max_pages)
        lost = [{**dict.fromkeys(self.program.columns), "source_url": failure.get("url", page.url),
                 "program_id": self.program_id, "error": failure.get("error", "failed")}
                for failure in result.failures]
        not_followed = [{**dict.fromkeys(self.program.columns), "source_url": page.url, "program_id": self.program_id,
                         "error": f"{count} {what} not followed: {why} (e.g. {result.not_followed_example[(what, why)]})"}
                        for (what, why), count in result.not_followed.items()]  # one row per reason, not per link
        return [*result.rows, *lost, *not_followed]
