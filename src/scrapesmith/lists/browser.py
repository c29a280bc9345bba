"""The browser runtime for list programs: the same page actions, carried out in Chromium.

Script-rendered lists (a job board filled from JSON, a "Load more" button, filters that never touch the
URL) only exist in a browser. :class:`BrowserPageRuntime` adapts a
:class:`~scrapesmith.web.browser.session.BrowserSession` to the runtime protocol replay drives: after
every action it re-reads the live DOM into an lxml tree, so selectors and extraction work exactly as
they do over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Self

from lxml import etree

from scrapesmith.dom import PageLayout, css_selector, parse_html, unrendered
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists.dsl import alternatives
from scrapesmith.lists.runtime import ReplayError
from scrapesmith.web.browser import (
    BrowserOptions,
    BrowserPolicy,
    BrowserRuntime,
    BrowserSession,
    live_layout,
    stamp_live,
)


class BrowserPageRuntime:
    """Page actions in a real browser tab; ``tree()`` is the rendered DOM after the last action."""

    name = "browser"

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self._tree: etree._Element | None = None
        self.pages_fetched = 0

    @property
    def url(self) -> str:
        return self.session.url

    def open(self, url: str) -> etree._Element:
        self.session.goto(url)
        self.pages_fetched += 1
        return self._refresh()

    def tree(self) -> etree._Element:
        if self._tree is None:
            raise ReplayError("no page is open")
        return self._tree

    def click(self, selector: str) -> bool:
        self._on_first(selector, self.session.click)
        self._refresh()
        return True

    def click_element(self, element: etree._Element) -> bool:
        return self.click(css_selector(element))

    def type_input(self, selector: str, value: str, enter: bool) -> None:
        element = self._first_element(selector)
        if element is not None and element.tag == "select":
            self._on_first(selector, lambda target: self.session.select(target, value))
        else:
            self._on_first(selector, lambda target: self.session.fill(target, value))
            if enter:
                self._on_first(selector, lambda target: self.session.press("Enter", target))
        self._refresh()

    def go_back(self) -> None:
        self.session.go_back()
        self._refresh()

    def layout(self) -> PageLayout:
        """The page as drawn now: the live DOM is stamped and read again (so :meth:`tree` is the tree the
        boxes belong to), then every element is measured in place, with the page's own styles."""
        try:
            stamp_live(self.session)
        except ScrapesmithError as exc:
            return unrendered(str(exc))
        return live_layout(self.session, self._refresh())

    def _refresh(self) -> etree._Element:
        self._tree = parse_html(self.session.html(), url=self.session.url)
        return self._tree

    def _first_element(self, selector: str) -> etree._Element | None:
        from scrapesmith.lists.selectors import first_in

        return first_in(self.tree(), selector)

    def _on_first(self, selector: str, act) -> None:
        """Run ``act`` on the first alternative of ``selector`` that the browser can act on."""
        errors = []
        for alternative in alternatives(selector):
            try:
                act(alternative)
                return
            except ScrapesmithError as exc:
                errors.append(str(exc))
        raise ReplayError(f"browser could not act on {selector!r}: {'; '.join(errors)[:300]}")


class BrowserRuntimes:
    """A factory of fresh browser tabs on one lazily started Chromium; :meth:`close` shuts it down.

    Call it to get a context manager yielding a :class:`BrowserPageRuntime` (the ``RuntimeFactory``
    shape replay and recording use).
    """

    def __init__(
        self, allow_hosts: list[str], delay: float | None = None, options: BrowserOptions | None = None
    ) -> None:
        self.allow_hosts = allow_hosts
        self.delay = delay
        self.options = options
        self._runtime: BrowserRuntime | None = None

    @contextmanager
    def __call__(self) -> Iterator[BrowserPageRuntime]:
        if self._runtime is None or self._runtime.is_closed:
            policy = BrowserPolicy.from_settings(allow_hosts=self.allow_hosts, delay=self.delay)
            self._runtime = BrowserRuntime(self.options, policy)
        with BrowserSession(self._runtime) as session:
            yield BrowserPageRuntime(session)

    def close(self) -> None:
        if self._runtime is not None:
            self._runtime.close()
            self._runtime = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
