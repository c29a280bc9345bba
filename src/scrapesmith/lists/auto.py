"""``--runtime auto`` for list programs: plain HTTP, then Chromium when the page needs scripts.

The first page a runtime opens is fetched over HTTP and judged by the same detector ``render`` uses
(:func:`scrapesmith.web.browser.render.assess`: an empty list container next to scripts, a "please
enable JavaScript" note, an empty app root, a page that is all script). When it says the list only
exists after scripts run, the runtime switches to a browser tab for the rest of the run; otherwise it
stays on HTTP. Either way the choice and its reason are kept in :attr:`AutoPageRuntime.choice`, so the
recorded program names the runtime it really used.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from lxml import etree

from scrapesmith.dom import PageLayout
from scrapesmith.lists.runtime import HttpRuntime, PageRuntime, ReplayError, RuntimeFactory, page_layout
from scrapesmith.web.browser import assess


class AutoPageRuntime:
    """Delegates to an HTTP runtime, or to a browser runtime once the first page asks for one."""

    def __init__(self, stack: ExitStack, http: RuntimeFactory, browser: RuntimeFactory) -> None:
        self._stack = stack
        self._http = http
        self._browser = browser
        self._active: PageRuntime | None = None
        self.choice = ""

    @property
    def name(self) -> str:
        return self._active.name if self._active is not None else "auto"

    @property
    def url(self) -> str:
        return self._active.url if self._active is not None else ""

    def open(self, url: str) -> etree._Element:
        if self._active is not None:
            return self._active.open(url)
        http = self._stack.enter_context(self._http())
        tree = http.open(url)
        evidence = assess(http.history[-1]) if isinstance(http, HttpRuntime) and http.history else None
        if evidence is None or not evidence.needs_browser:
            self._active, self.choice = http, "http (the HTTP copy holds the page's content)"
            return tree
        self._active = self._stack.enter_context(self._browser())
        self.choice = f"browser (the HTTP copy needs scripts: {', '.join(evidence.signals)})"
        return self._active.open(url)

    def layout(self) -> PageLayout:
        """The rendered layout when the page is in the browser anyway; over HTTP, none (DOM evidence)."""
        return page_layout(self._current())

    def _current(self) -> PageRuntime:
        if self._active is None:
            raise ReplayError("no page is open")
        return self._active

    def tree(self) -> etree._Element:
        return self._current().tree()

    def click(self, selector: str) -> bool:
        return self._current().click(selector)

    def click_element(self, element: etree._Element) -> bool:
        return self._current().click_element(element)

    def type_input(self, selector: str, value: str, enter: bool) -> None:
        self._current().type_input(selector, value, enter)

    def go_back(self) -> None:
        self._current().go_back()


def auto_runtimes(http: RuntimeFactory, browser: RuntimeFactory) -> RuntimeFactory:
    """A factory of :class:`AutoPageRuntime` s; each decides on the first page it opens."""

    @contextmanager
    def make() -> Iterator[PageRuntime]:
        with ExitStack() as stack:
            yield AutoPageRuntime(stack, http, browser)

    return make
