"""How one tab loads a page: a navigation and its outcome, the wait until the page has settled, and whether
an action just done began loading something.

These steps act on a :class:`~scrapesmith.web.browser.tab.Tab` alone and run on the runtime's event loop;
they keep no session state. :class:`~scrapesmith.web.browser.session.BrowserSession` calls them for its
navigations and after its actions, and when it reloads a page it rebuilt.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from scrapesmith.web.browser.failures import navigation_error, raise_if_refused, refusal_error
from scrapesmith.web.browser.runtime import BrowserRuntime
from scrapesmith.web.browser.tab import TURN_JS, Tab
from scrapesmith.web.browser.views import BrowserFetchError, BrowserOptions

CHROME_ERROR_PAGE = "chrome-error://"


@dataclass(frozen=True)
class Navigation:
    """The outcome of a navigation: final URL, main-document status, headers and media type.

    ``document`` holds the raw bytes only for non-HTML documents (JSON, text), which a browser would
    merely wrap in a viewer page.
    """

    url: str
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "text/html"
    document: bytes | None = None


async def navigate(tab: Tab, runtime: BrowserRuntime, url: str) -> Navigation:
    """Load ``url`` in ``tab``, wait for ``load`` and then for the network's quiet (:func:`settle`).

    A refused URL, or one the page then sent itself to, raises the ``FetchError`` the HTTP path would; a tab
    whose renderer timed out gets a fresh page before the error is raised (a busy renderer is not reused).
    """
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    tab.own_navigation = url
    refused_before, refusals_before = tab.refused_navigations, len(tab.refusals)
    try:
        response = await tab.page.goto(url, wait_until="load")
    except Exception as exc:
        if "ERR_ABORTED" in str(exc):  # a dying renderer aborts the navigation before "crash" arrives
            await asyncio.sleep(0.2)
        if tab.crashed or tab.page.is_closed():
            raise
        if isinstance(exc, PlaywrightTimeout):  # maybe a busy renderer: do not keep using it
            await runtime.new_page(tab)
        raise navigation_error(tab, runtime, url, exc) from None
    finally:
        tab.own_navigation = None
    tab.navigations += 1
    await settle(tab, runtime.options)
    if tab.page.url.startswith(CHROME_ERROR_PAGE):  # the page navigated itself somewhere refused
        raise self_navigation_error(tab, url, refused_before, refusals_before)
    if response is None:  # same-document navigation (fragment) or about:blank
        return Navigation(url=tab.page.url, status=200)
    headers = await response.all_headers()
    raise_if_refused(url, headers)
    content_type = headers.get("content-type", "text/html").split(";", 1)[0].strip().lower()
    document = None if "html" in content_type or not content_type else await response.body()
    return Navigation(tab.page.url, response.status, headers, content_type or "text/html", document)


def self_navigation_error(tab: Tab, url: str, refused_before: int, refusals_before: int) -> Exception:
    """A page that sent itself (meta refresh, script) to a refused URL: that refusal, not Chrome's error page."""
    refusal = tab.last_refused_navigation if tab.refused_navigations > refused_before else None
    if refusal is None and len(tab.refusals) > refusals_before:
        refusal = tab.refusals[-1]
    if refusal is None:
        return BrowserFetchError(url, "the page navigated itself to a URL that failed (Chrome's error page)")
    error = refusal_error(url, refusal)
    reason = str(error).removeprefix(f"{url}: ")
    return type(error)(url, f"the page navigated itself to {refusal.url}, which was refused: {reason}")


async def settle(tab: Tab, options: BrowserOptions) -> None:
    """Wait until no request has been in flight for ``idle_quiet`` s, at most ``settle_timeout`` s."""
    deadline = time.monotonic() + options.settle_timeout
    while time.monotonic() < deadline and not (tab.crashed or tab.closed):
        if not tab.inflight and time.monotonic() - tab.last_network >= options.idle_quiet:
            return
        await asyncio.sleep(0.03)


async def started_loading(tab: Tab, refused_before: int, started: float) -> bool:
    """Whether the action just done sent a request or began a navigation (``TURN_JS``); when unsure, yes."""
    try:
        loading = await tab.page.evaluate(TURN_JS)
    except Exception:  # noqa: BLE001 - the document went away under the script: it is leaving
        return True
    return loading is not False or bool(tab.inflight) or tab.last_network >= started \
        or tab.refused_navigations > refused_before


__all__ = ["CHROME_ERROR_PAGE", "Navigation", "navigate", "self_navigation_error", "settle", "started_loading"]
