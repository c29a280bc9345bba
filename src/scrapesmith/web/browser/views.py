"""Data of the browser runtime (options, snapshots, recoveries, errors), kept apart from its behaviour."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.web.page import FetchError, utc_now

DEFAULT_CHROMIUM = "/usr/bin/chromium"

# Every flag keeps Chromium quiet and local: without the background-networking family it phones home.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
    "--no-pings",
    "--password-store=basic",
    # WebRTC may use the proxy or nothing: no UDP of its own (STUN to any address would bypass the guard).
    # (This switch is the one Debian's Chromium honours; --force-webrtc-ip-handling-policy=… is not.)
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
)

# An element id of a snapshot, or a CSS selector. A string of digits is an id: no CSS selector is all digits.
Target = int | str


@dataclass(frozen=True)
class BrowserOptions:
    """Limits and knobs of one browser runtime. Defaults suit a laptop; tests and benchmarks shrink them.

    Timeouts are seconds. ``settle_timeout`` bounds the wait for network idle after ``load`` (a page that
    polls forever still returns); ``idle_quiet`` is how long no request may be in flight to call the
    network idle. ``max_pages_per_context`` and ``max_rss_mb`` are the memory cap: a context is recycled
    after that many navigations or when the browser's processes together use more resident memory.
    """

    executable_path: str = field(
        default_factory=lambda: os.environ.get("SCRAPESMITH_CHROMIUM", DEFAULT_CHROMIUM)
    )
    headless: bool = True
    max_contexts: int = 4
    action_timeout: float = 5.0
    page_timeout: float = 20.0
    settle_timeout: float = 3.0
    idle_quiet: float = 0.25
    max_pages_per_context: int = 50
    max_rss_mb: int = 2048
    viewport: tuple[int, int] = (1280, 800)
    user_agent: str | None = None
    watchdog_margin: float = 10.0

    @property
    def watchdog(self) -> float:
        """The hard wall-clock limit of one call into the browser, after which it is declared hung."""
        return max(self.action_timeout, self.page_timeout, self.settle_timeout) + self.watchdog_margin


@dataclass(frozen=True)
class Recovery:
    """One automatic restart: what broke (``page-crashed``, ``page-closed``, ``context-closed``,
    ``browser-gone``, ``browser-hung``, ``memory``, ``page-budget``), what was rebuilt, and where."""

    kind: str
    rebuilt: str
    url: str
    detail: str = ""
    at: datetime = field(default_factory=utc_now)


@dataclass(frozen=True)
class Snapshot:
    """The current page as an agent or a list recorder sees it.

    Every element of the live page carries a ``data-ss-id``; ``ids`` maps each id present in the HTML to
    its tag, so an action can address the element as ``session.click(7)`` (the locator is
    ``[data-ss-id="7"]``). Ids stay the same across snapshots for elements that persist. ``simplified`` and
    ``markdown`` are the ``dom`` views built from the same HTML.
    """

    url: str
    title: str
    html: str
    ids: dict[int, str]
    simplified: Any = None
    markdown: Any = None
    screenshot: bytes | None = None

    def locator(self, element_id: int) -> str:
        return id_selector(element_id)


def id_selector(element_id: int) -> str:
    return f'[data-ss-id="{int(element_id)}"]'


class BrowserError(ScrapesmithError):
    """The browser could not do what was asked; the session remains usable."""


class BrowserUnavailable(BrowserError):
    """Chromium or Playwright is missing or cannot start."""


class ActionFailed(BrowserError):
    """An action could not be performed (no such element, not visible, timed out)."""


class PageCrashed(BrowserError):
    """The page, its context or the browser died during an action; it was rebuilt (see ``recovery``)."""

    def __init__(self, message: str, recovery: Recovery | None = None) -> None:
        super().__init__(message)
        self.recovery = recovery


class BrowserBusy(BrowserError):
    """Every context slot stayed taken for longer than the caller was willing to wait."""


class BrowserFetchError(FetchError):
    """The browser failed to load a page (navigation error, crash after retry, timeout)."""

    reason = "browser"


def first_line(exc: BaseException) -> str:
    """The first line of an error message (Playwright appends call logs below it)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
