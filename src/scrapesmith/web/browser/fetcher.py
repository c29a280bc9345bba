"""Fetch pages by rendering them in Chromium, and build the fetcher a ``--render`` mode asks for."""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from types import TracebackType
from typing import Self

from scrapesmith.dom import decode_html
from scrapesmith.web.browser.navigation import Navigation
from scrapesmith.web.browser.policy import BrowserPolicy
from scrapesmith.web.browser.render import AutoFetcher, RenderMode
from scrapesmith.web.browser.runtime import BrowserRuntime
from scrapesmith.web.browser.session import BrowserSession
from scrapesmith.web.browser.views import (
    BrowserBusy,
    BrowserOptions,
    BrowserUnavailable,
    Recovery,
)
from scrapesmith.web.fetch import HttpFetcher, sniff_media_type
from scrapesmith.web.page import HttpStatusError, Page
from scrapesmith.web.safety import redact_url


class BrowserFetcher:
    """Fetches pages by rendering them in Chromium; the browser starts on the first fetch.

    Pass a ``runtime`` to share a browser with other users (it is then not closed here), or ``options``
    and ``policy`` to have the fetcher own one. A pooled context is recycled after
    ``options.max_pages_per_context`` pages or when Chromium exceeds ``options.max_rss_mb``.
    """

    def __init__(
        self,
        runtime: BrowserRuntime | None = None,
        *,
        options: BrowserOptions | None = None,
        policy: BrowserPolicy | None = None,
    ) -> None:
        self._owns_runtime = runtime is None
        self.runtime = runtime or BrowserRuntime(options, policy)
        self._idle: queue.LifoQueue[BrowserSession] = queue.LifoQueue()
        self._sessions: list[BrowserSession] = []
        self._lock = threading.Lock()
        self._closed = False

    def fetch(self, url: str) -> Page:
        started = time.monotonic()
        url = redact_url(url)  # the browser gets no credentials from a URL, and none are recorded
        self.runtime.policy.admit(url)  # a refused URL never starts a browser
        session = self._borrow()
        try:
            navigation = session.goto(url)
            if navigation.status >= 400:
                raise HttpStatusError(url, f"HTTP {navigation.status}", navigation.status)
            content = navigation.document if navigation.document is not None else session.html().encode()
        finally:
            self._idle.put(session)
        return self._page(url, navigation, content, time.monotonic() - started)

    @property
    def recoveries(self) -> list[Recovery]:
        return self.runtime.recoveries

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            sessions, self._sessions = self._sessions, []
        for session in sessions:
            session.close()
        if self._owns_runtime:
            self.runtime.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _borrow(self) -> BrowserSession:
        with contextlib.suppress(queue.Empty):
            return self._idle.get_nowait()
        with self._lock:
            if self._closed:
                raise BrowserUnavailable("the browser fetcher is closed")
            can_open = len(self._sessions) < self.runtime.options.max_contexts
            if can_open:
                budget = self.runtime.options.max_pages_per_context
                session = BrowserSession(self.runtime, recycle_after=budget)
                self._sessions.append(session)
        if not can_open:
            try:
                return self._idle.get(timeout=self.runtime.options.watchdog)
            except queue.Empty:
                raise BrowserBusy("every browser context of the fetcher stayed busy") from None
        try:
            return session.open()
        except BaseException:
            with self._lock:
                self._sessions.remove(session)
            raise

    def _page(self, url: str, navigation: Navigation, content: bytes, elapsed: float) -> Page:
        if navigation.document is None:  # the serialised DOM, which we encoded as UTF-8
            charset: str | None = "utf-8"
        else:
            charset = navigation.headers.get("content-type", "").partition("charset=")[2].strip() or None
        text, encoding = decode_html(content, charset)
        return Page(
            url=navigation.url,
            content=content,
            text=text,
            status=navigation.status,
            headers=navigation.headers,
            content_type=navigation.content_type or sniff_media_type(content),
            encoding=encoding,
            requested_url=url,
            via="browser",
            elapsed=elapsed,
        )


def make_fetcher(
    render: RenderMode,
    http: HttpFetcher,
    options: BrowserOptions | None = None,
) -> HttpFetcher | AutoFetcher:
    """The fetcher for a ``--render`` mode; the browser shares ``http``'s safety rules and politeness.

    ``never`` returns ``http`` itself; the others return an :class:`AutoFetcher` whose browser launches
    only when the first page needs it. Close the result (or ``http`` for ``never``) when done.
    """
    if render == "never":
        return http
    browser = BrowserFetcher(options=options, policy=BrowserPolicy.from_http(http))
    return AutoFetcher(http, browser, render)
