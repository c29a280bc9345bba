"""One browser tab as the runtime's event loop sees it: a context, its single page, and the listeners
that keep the tab's state current (in-flight requests for network idle, crash and close flags, refused
navigations). Sessions read these flags to notice breakage; only the loop thread writes them.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from scrapesmith.web.browser.proxy import Refusal

# One tab per session: links and forms that target a new window, and window.open, load in the same tab,
# so an agent or replayer always sees where a click led.
SAME_TAB_JS = """
(() => {
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[target], area[target]') : null;
    if (link) link.removeAttribute('target');
  }, true);
  document.addEventListener('submit', (event) => {
    if (event.target instanceof HTMLFormElement) event.target.removeAttribute('target');
  }, true);
  window.open = function (url) { if (url) window.location.assign(url); return null; };
})();
"""

# Marks a document that began loading something: leaving (a link followed, a form sent, a script's location change:
# the Navigation API's ``navigate`` event fires the moment a navigation starts) or a script's request (fetch, XHR).
# Both are marked in the page the moment they start, before their request is visible to us, so a session can tell
# "the action started loading" from "nothing to wait for" without sleeping (``TURN_JS`` reads and clears the mark).
LOADING_MARK_JS = """
(() => {
  const mark = () => { window.__scrapesmithLoading = true; };
  if (typeof navigation !== 'undefined') {
    navigation.addEventListener('navigate', (event) => {
      if (!event.destination.sameDocument && !event.downloadRequest) mark();
    });
  }
  if (typeof window.fetch === 'function') {
    const fetch = window.fetch;
    window.fetch = function (...args) { mark(); return fetch.apply(this, args); };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) { mark(); return send.apply(this, args); };
})();
"""

# One turn of the page's event loop after an action (what its handlers queued with no delay has run), then whether
# the page began loading meanwhile; ``undefined`` where the page has no Navigation API (then it may be leaving).
TURN_JS = """
() => new Promise((resolve) => setTimeout(() => {
  const loading = typeof navigation === 'undefined' ? undefined : window.__scrapesmithLoading === true;
  window.__scrapesmithLoading = false;
  resolve(loading);
}, 0))
"""


@dataclass
class Tab:
    """One isolated context with its single page, as the loop thread sees it."""

    context: Any
    page: Any
    generation: int
    inflight: set = field(default_factory=set)
    last_network: float = field(default_factory=time.monotonic)
    crashed: bool = False
    closed: bool = False
    navigations: int = 0
    own_navigation: str | None = None
    refusals: deque[Refusal] = field(default_factory=lambda: deque(maxlen=50))
    refused_navigations: int = 0
    last_refused_navigation: Refusal | None = None
    opening_page: bool = False

    def refusal_for(self, url: str) -> Refusal | None:
        for refusal in reversed(self.refusals):
            if refusal.url.split("#", 1)[0] == url.split("#", 1)[0]:
                return refusal
        return None


def watch(tab: Tab) -> None:
    """Keep the tab's crash/close flags and its in-flight request set current (for network idle)."""
    page = tab.page

    def started(request: Any) -> None:
        tab.inflight.add(request)
        tab.last_network = time.monotonic()

    def ended(request: Any) -> None:
        tab.inflight.discard(request)
        tab.last_network = time.monotonic()

    def crashed(_page: Any) -> None:
        tab.crashed = True

    def closed(_page: Any) -> None:
        tab.closed = True

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    page.on("crash", crashed)
    page.on("close", closed)
    page.on("dialog", _answer_dialog)


def _answer_dialog(dialog: Any) -> Any:
    """Dismiss alerts and prompts, but let the page go when it asks to stay (``beforeunload``)."""
    return dialog.accept() if dialog.type == "beforeunload" else dialog.dismiss()


def close_popup(tab: Tab, popup: Any) -> Any:
    """A session is one tab: windows the page opens despite ``SAME_TAB_JS`` are closed at once."""
    if popup is not tab.page and not tab.opening_page:
        return popup.close()
    return None
