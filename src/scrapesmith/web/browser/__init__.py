"""The browser runtime's public face: :class:`BrowserFetcher`, :class:`BrowserSession`, and the fetcher
factory behind ``--render auto|never|always``.

Pages that render with JavaScript, hide their data behind "Load more" or filters, or need clicks are out
of reach of plain HTTP. These classes drive the system Chromium through Playwright:

* :class:`BrowserFetcher` is a :class:`~scrapesmith.web.page.Fetcher`: the rendered DOM after ``load``
  plus network idle (bounded), ``Page.via == "browser"``. Thread-safe; concurrent fetches use separate
  contexts of one browser, up to ``BrowserOptions.max_contexts``.
* :class:`~scrapesmith.web.browser.session.BrowserSession` is one interactive tab (actions by CSS selector
  or snapshot element id, snapshots with ``dom`` views), for the list replayer and agent environments.
* :func:`make_fetcher` builds the fetcher a ``--render`` mode asks for.

Safety is the HTTP client's: the same address guard, robots.txt and politeness (see :mod:`scrapesmith.web.browser.policy`),
enforced on every navigation and on every request and redirect a page triggers; downloads are refused,
contexts keep no storage, and Chromium runs with background networking off behind a loopback proxy.
"""

from scrapesmith.web.browser.fetcher import BrowserFetcher, make_fetcher
from scrapesmith.web.browser.layout import live_layout, render_layout, stamp_live
from scrapesmith.web.browser.navigation import Navigation
from scrapesmith.web.browser.policy import BrowserPolicy
from scrapesmith.web.browser.proxy import GuardProxy, Refusal
from scrapesmith.web.browser.render import RENDER_MODES, AutoFetcher, RenderDecision, RenderMode, assess
from scrapesmith.web.browser.runtime import BrowserRuntime
from scrapesmith.web.browser.session import BrowserSession
from scrapesmith.web.browser.views import (
    ActionFailed,
    BrowserBusy,
    BrowserError,
    BrowserFetchError,
    BrowserOptions,
    BrowserUnavailable,
    PageCrashed,
    Recovery,
    Snapshot,
)

__all__ = [
    "RENDER_MODES",
    "ActionFailed",
    "AutoFetcher",
    "BrowserBusy",
    "BrowserError",
    "BrowserFetchError",
    "BrowserFetcher",
    "BrowserOptions",
    "BrowserPolicy",
    "BrowserRuntime",
    "BrowserSession",
    "BrowserUnavailable",
    "GuardProxy",
    "Navigation",
    "PageCrashed",
    "Recovery",
    "Refusal",
    "RenderDecision",
    "RenderMode",
    "Snapshot",
    "assess",
    "live_layout",
    "make_fetcher",
    "render_layout",
    "stamp_live",
]
