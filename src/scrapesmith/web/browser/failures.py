"""Translating what goes wrong in Chromium into the errors the rest of scrapesmith already knows.

A refused navigation becomes the ``FetchError`` the HTTP path would raise (``BlockedAddress``,
``RobotsDisallowed``, ``Unreachable``); a message that means the page, context or browser died is mapped
to a breakage kind, which the session answers by rebuilding (see ``BrowserSession``).
"""

from __future__ import annotations

from scrapesmith.web.browser.proxy import REFUSED_HEADER, Refusal
from scrapesmith.web.browser.runtime import BrowserRuntime
from scrapesmith.web.browser.tab import Tab
from scrapesmith.web.browser.views import BrowserFetchError, first_line
from scrapesmith.web.page import BlockedAddress, FetchError, RobotsDisallowed, Unreachable


def refusal_error(url: str, refusal: Refusal) -> FetchError:
    """The error a refused request deserves, worded like the HTTP fetcher's."""
    kind = RobotsDisallowed if refusal.reason == RobotsDisallowed.reason else BlockedAddress
    return kind(url, refusal.message.removeprefix(f"{refusal.url}: "))


def raise_if_refused(url: str, headers: dict[str, str]) -> None:
    """A navigation answered by the proxy's refusal (a redirect hop it stopped) is that refusal."""
    reason = headers.get(REFUSED_HEADER.lower())
    if reason == RobotsDisallowed.reason:
        raise RobotsDisallowed(url, "robots.txt disallows a page this navigation was redirected to")
    if reason:
        raise BlockedAddress(url, f"the navigation was redirected to a refused address ({reason})")


def navigation_error(tab: Tab, runtime: BrowserRuntime, url: str, exc: Exception) -> Exception:
    """Turn Playwright's navigation error into the FetchError the HTTP path would have raised."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    text = first_line(exc)
    refusal = tab.refusal_for(url) or runtime.proxy_refusal(url)
    if refusal is None and ("ERR_BLOCKED_BY_CLIENT" in text or "ERR_TUNNEL_CONNECTION_FAILED" in text):
        refusal = tab.refusals[-1] if tab.refusals else None
    if refusal is not None:
        return refusal_error(url, refusal)
    if isinstance(exc, PlaywrightTimeout):
        return Unreachable(url, f"page did not load within the page timeout ({text})")
    if "Download is starting" in text:
        return BrowserFetchError(url, "the URL starts a download; downloads are disabled")
    if breakage_in_message(text) is not None:
        return exc  # a crash: let the session rebuild and retry
    if "ERR_" in text:
        return Unreachable(url, text)
    return BrowserFetchError(url, text)


def breakage_in_message(text: str) -> str | None:
    """The breakage kind a Playwright error message reveals, or ``None`` for an ordinary failure."""
    lowered = text.lower()
    if "crash" in lowered:
        return "page-crashed"
    if "browser has been closed" in lowered or "browser has disconnected" in lowered:
        return "browser-gone"
    if "has been closed" in lowered or "target closed" in lowered:
        return "context-closed"
    return None
