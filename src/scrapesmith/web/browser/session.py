"""``BrowserSession``: one isolated browser tab driven by small synchronous actions.

This is the API the list replayer and the InSTA agent environment build on, so it stays small:

* navigation: :meth:`~BrowserSession.goto`, :meth:`~BrowserSession.go_back`;
* actions: :meth:`click`, :meth:`fill`, :meth:`select`, :meth:`set_checked`, :meth:`hover`,
  :meth:`scroll`, :meth:`press`, :meth:`evaluate` (a script, for widgets no action names) — each takes a
  *target*: an element id of the latest snapshot
  (``7`` or ``"7"``) or a CSS selector (the first match is used);
* observation: :meth:`snapshot` (HTML, URL, simplified-DOM and markdown views, id map), :meth:`count`,
  :meth:`screenshot`.

Failures are reported, never hung on: an action that cannot be done raises :class:`ActionFailed`; a page,
context or browser that dies is rebuilt at once (the last URL is reloaded), the event is appended to
:attr:`recoveries`, and the interrupted action raises :class:`PageCrashed` — except navigations, which
are simply retried once. Refused navigations raise the same errors as ``HttpFetcher``
(:class:`BlockedAddress`, :class:`RobotsDisallowed`).

The session owns the tab and its repair; how a tab loads a page (the navigation, the wait for the network's
quiet, whether an action began loading) is :mod:`scrapesmith.web.browser.navigation`, which also defines
:class:`~scrapesmith.web.browser.navigation.Navigation` (importable from here as before).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Self, TypeVar

from scrapesmith.web.browser.failures import breakage_in_message, refusal_error
from scrapesmith.web.browser.navigation import Navigation, navigate, settle, started_loading
from scrapesmith.web.browser.policy import BrowserPolicy
from scrapesmith.web.browser.runtime import BrowserHung, BrowserRuntime
from scrapesmith.web.browser.snapshot import LIVE_STATE_JS, STAMP_IDS_JS, build_snapshot
from scrapesmith.web.browser.tab import Tab
from scrapesmith.web.browser.views import (
    ActionFailed,
    BrowserBusy,
    BrowserOptions,
    PageCrashed,
    Recovery,
    Snapshot,
    Target,
    first_line,
    id_selector,
)

T = TypeVar("T")
_ACTION_GRACE = 0.05  # once an action began loading: lets its requests begin before we wait for the network to go idle


class BrowserSession:
    """A browser context with one page. Open with ``with BrowserSession(runtime) as s:`` or :meth:`open`.

    Without a ``runtime`` the session launches (and later closes) its own browser. ``recycle_after``
    replaces the context after that many navigations, keeping cookies; the runtime's memory cap recycles
    it when Chromium's resident memory exceeds ``BrowserOptions.max_rss_mb``.
    """

    def __init__(
        self,
        runtime: BrowserRuntime | None = None,
        *,
        options: BrowserOptions | None = None,
        policy: BrowserPolicy | None = None,
        recycle_after: int | None = None,
    ) -> None:
        self._owns_runtime = runtime is None
        self.runtime = runtime or BrowserRuntime(options, policy)
        self.options = self.runtime.options
        self.recycle_after = recycle_after
        self.recoveries: list[Recovery] = []
        self.last_snapshot: Snapshot | None = None
        self._tab: Tab | None = None
        self._last_url = ""

    # -- lifecycle ---------------------------------------------------------------------------------------

    def open(self) -> Self:
        if self._tab is not None:
            return self
        self.runtime.start()
        if not self.runtime.acquire_slot(self.options.page_timeout):
            raise BrowserBusy(f"all {self.options.max_contexts} browser contexts stayed busy")
        try:
            self._tab = self.runtime.call(self.runtime.open_tab)
        except BaseException:
            self.runtime.release_slot()
            raise
        return self

    def close(self) -> None:
        tab, self._tab = self._tab, None
        if tab is not None:
            if not self.runtime.is_closed:
                with contextlib.suppress(Exception):
                    self.runtime.call(lambda: self.runtime.close_tab(tab), timeout=10)
            self.runtime.release_slot()
        if self._owns_runtime:
            self.runtime.close()

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        return self._tab.page.url if self._tab is not None else ""

    # -- navigation --------------------------------------------------------------------------------------

    def goto(self, url: str) -> Navigation:
        """Load ``url`` and wait for ``load`` plus network idle (bounded); refused URLs raise FetchError."""
        self.runtime.policy.admit(url)
        self._maybe_recycle(url)
        with self.runtime.policy.throttle.slot(url):
            navigation = self._act("goto", lambda tab: navigate(tab, self.runtime, url), retry=True)
        self._last_url = navigation.url
        return navigation

    def go_back(self) -> None:
        self._act("go_back", self._go_back_async)

    # -- actions -----------------------------------------------------------------------------------------

    def click(self, target: Target) -> None:
        self._locator_action("click", target, lambda loc: loc.click())

    def fill(self, target: Target, text: str) -> None:
        self._locator_action("fill", target, lambda loc: loc.fill(text))

    def select(self, target: Target, option: str | list[str]) -> None:
        """Choose option(s) of a ``<select>`` by value or by visible label."""
        self._locator_action("select", target, lambda loc: loc.select_option(option))

    def set_checked(self, target: Target, checked: bool = True) -> None:
        self._locator_action("set_checked", target, lambda loc: loc.set_checked(checked))

    def hover(self, target: Target) -> None:
        self._locator_action("hover", target, lambda loc: loc.hover())

    def press(self, key: str, target: Target | None = None, times: int = 1) -> None:
        """Press ``key`` (e.g. ``"Enter"``) ``times`` times on ``target``, or on whatever has the focus; the page
        settles once, after the last press (a slider stepped forty times is one action, not forty)."""

        async def presses(press: Callable[[], Awaitable[Any]]) -> None:
            for _ in range(max(1, times)):
                await press()

        if target is None:
            self._act("press", lambda tab: self._then_settle(tab, presses(lambda: tab.page.keyboard.press(key))))
        else:
            self._locator_action("press", target, lambda loc: presses(lambda: loc.press(key)))

    def evaluate(self, script: str, arg: Any = None, target: Target | None = None) -> Any:
        """Run the JavaScript function ``script`` in the page (on ``target``'s element, its first argument, when
        given) with ``arg`` and return its JSON result; the page settles afterwards, as after an action."""
        selector = None if target is None else _selector(target)

        async def run(tab: Tab) -> Any:
            refused_before, started = tab.refused_navigations, time.monotonic()
            where = tab.page if selector is None else tab.page.locator(selector).first
            result = await where.evaluate(script, arg)
            await self._after_action(tab, refused_before, started)
            return result

        return self._act(f"evaluate {selector or 'page'}", run)

    def scroll(self, target: Target | None = None, pixels: int = 600) -> None:
        """Scroll ``target`` into view, or the page down by ``pixels`` (negative: up)."""
        if target is not None:
            self._locator_action("scroll", target, lambda loc: loc.scroll_into_view_if_needed())
        else:
            script = f"window.scrollBy(0, {int(pixels)})"
            self._act("scroll", lambda tab: self._then_settle(tab, tab.page.evaluate(script)))

    # -- observation -------------------------------------------------------------------------------------

    def snapshot(self, screenshot: bool = False, max_tokens: int | None = 4000) -> Snapshot:
        """Stamp ids on the live DOM and return the page with its ``dom`` views (see :class:`Snapshot`)."""
        url, title, html, image = self._act("snapshot", lambda tab: self._snapshot_async(tab, screenshot))
        self.last_snapshot = build_snapshot(url, title, html, image, max_tokens)
        return self.last_snapshot

    def html(self) -> str:
        return self._act("html", lambda tab: tab.page.content())

    def count(self, selector: str) -> int:
        """How many elements match ``selector`` now (e.g. whether a "Load more" button is still there)."""
        return self._act("count", lambda tab: tab.page.locator(selector).count())

    def is_visible(self, target: Target) -> bool:
        return self._act("is_visible", lambda tab: tab.page.locator(_selector(target)).first.is_visible())

    def screenshot(self, full_page: bool = False) -> bytes:
        return self._act("screenshot", lambda tab: tab.page.screenshot(full_page=full_page))

    # -- internals ---------------------------------------------------------------------------------------

    def _locator_action(self, name: str, target: Target, run: Callable[[Any], Awaitable[Any]]) -> None:
        selector = _selector(target)

        async def act(tab: Tab) -> None:
            refused_before, started = tab.refused_navigations, time.monotonic()
            await run(tab.page.locator(selector).first)
            await self._after_action(tab, refused_before, started)

        self._act(f"{name} {selector}", act)

    async def _then_settle(self, tab: Tab, step: Awaitable[Any]) -> None:
        refused_before, started = tab.refused_navigations, time.monotonic()
        await step
        await self._after_action(tab, refused_before, started)

    async def _after_action(self, tab: Tab, refused_before: int, started: float) -> None:
        """Let what the action started finish; a navigation it caused that the policy refused is an error.

        Most actions start nothing to wait for (a box ticked, a field filled, a script-drawn menu opened): one turn
        of the page's event loop tells whether the action sent a request or began leaving the document, and only
        then is the load and the network's quiet waited for. A fixed grace before every wait cost each action 0.05 s.
        """
        if await started_loading(tab, refused_before, started):
            await asyncio.sleep(_ACTION_GRACE)
            with contextlib.suppress(Exception):
                await tab.page.wait_for_load_state("load", timeout=self.options.page_timeout * 1000)
            await settle(tab, self.options)
        refusal = tab.last_refused_navigation
        if tab.refused_navigations > refused_before and refusal is not None:
            if tab.page.url.startswith("chrome-error:") and self._last_url:
                with contextlib.suppress(Exception):  # back to the page the action started from
                    await tab.page.goto(self._last_url, wait_until="load")
                    await settle(tab, self.options)
            raise refusal_error(refusal.url, refusal)
        if tab.page.url.startswith(("http:", "https:")):
            self._last_url = tab.page.url

    def _act(self, name: str, run: Callable[[Tab], Awaitable[T]], retry: bool = False) -> T:
        """Run one step on the tab; rebuild what broke, then retry (navigations) or report (the rest)."""
        recovery = self._heal_before(name)
        if recovery is not None and not retry:
            raise PageCrashed(f"{name}: the page was rebuilt ({recovery.kind}) before this action", recovery)
        try:
            return self._call(run)
        except PageCrashed as crash:
            if not retry:
                raise
            try:
                return self._call(run)
            except PageCrashed as again:
                raise PageCrashed(f"{name} failed twice: {again}", crash.recovery) from None

    def _call(self, run: Callable[[Tab], Awaitable[T]]) -> T:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        tab = self._require_tab()
        try:
            return self.runtime.call(lambda: run(tab))
        except BrowserHung as exc:
            raise PageCrashed(str(exc), self._recover("browser-hung", str(exc))) from None
        except PlaywrightTimeout as exc:
            raise ActionFailed(f"timed out: {first_line(exc)}") from None
        except PlaywrightError as exc:
            kind = self._breakage(tab) or breakage_in_message(str(exc))
            if kind is None:
                raise ActionFailed(first_line(exc)) from None
            raise PageCrashed(f"{kind}: {first_line(exc)}", self._recover(kind, first_line(exc))) from None

    def _require_tab(self) -> Tab:
        if self._tab is None:
            self.open()
        assert self._tab is not None
        return self._tab

    def _heal_before(self, name: str) -> Recovery | None:
        tab = self._require_tab()
        kind = self._breakage(tab)
        return self._recover(kind, f"found broken before {name}") if kind else None

    def _breakage(self, tab: Tab) -> str | None:
        if not self.runtime.browser_connected() or tab.generation != self.runtime.generation:
            return "browser-gone"
        if tab.crashed:
            return "page-crashed"
        if tab.closed or tab.page.is_closed():
            return "page-closed"
        return None

    def _recover(self, kind: str, detail: str) -> Recovery:
        """Rebuild the smallest broken part (page, context or browser) and reload the last URL."""
        tab = self._require_tab()
        limit = self.options.watchdog + 30
        rebuilt = self.runtime.call(lambda: self._rebuild_async(tab, kind), timeout=limit)
        recovery = self.runtime.record(Recovery(kind, rebuilt, url=self._last_url, detail=detail))
        self.recoveries.append(recovery)
        return recovery

    async def _rebuild_async(self, tab: Tab, kind: str) -> str:
        rebuilt = "page"
        if kind in ("browser-gone", "browser-hung") or not self.runtime.browser_connected():
            await self.runtime.ensure_browser(tab.generation)
            rebuilt = "browser"
        if rebuilt == "page":
            try:
                await self.runtime.new_page(tab)
            except Exception:  # noqa: BLE001 - the context itself is gone: fall back to a new one
                rebuilt = "context"
        if rebuilt != "page":
            await self.runtime.close_tab(tab)
            self._tab = await self.runtime.open_tab()
        if self._last_url and kind != "browser-hung":  # a page that hung the browser would hang it again
            with contextlib.suppress(Exception):
                await self._tab.page.goto(self._last_url, wait_until="load")
                await settle(self._tab, self.options)
        return rebuilt

    def _maybe_recycle(self, url: str) -> None:
        """The memory cap: a fresh context after ``recycle_after`` pages or when Chromium grows too big."""
        tab = self._require_tab()
        kind = None
        if self.recycle_after and tab.navigations >= self.recycle_after:
            kind = "page-budget"
        elif self.runtime.rss_bytes() > self.options.max_rss_mb * 1024 * 1024:
            kind = "memory"
        if kind is not None:
            self._tab = self.runtime.call(lambda: self._recycle_async(tab))
            recovery = Recovery(kind, "context", url=url, detail=f"after {tab.navigations} pages")
            self.recoveries.append(self.runtime.record(recovery))

    async def _recycle_async(self, tab: Tab) -> Tab:
        state = None
        with contextlib.suppress(Exception):
            state = await tab.context.storage_state()
        await self.runtime.close_tab(tab)
        fresh = await self.runtime.open_tab()
        if state and state.get("cookies"):
            with contextlib.suppress(Exception):
                await fresh.context.add_cookies(state["cookies"])
        return fresh

    async def _go_back_async(self, tab: Tab) -> None:
        await tab.page.go_back(wait_until="load")
        await settle(tab, self.options)
        self._last_url = tab.page.url

    async def _snapshot_async(self, tab: Tab, screenshot: bool) -> tuple[str, str, str, bytes | None]:
        await tab.page.evaluate(STAMP_IDS_JS)
        await tab.page.evaluate(LIVE_STATE_JS)
        html = await tab.page.content()
        image = await tab.page.screenshot() if screenshot else None
        return tab.page.url, await tab.page.title(), html, image


def _selector(target: Target) -> str:
    if isinstance(target, int) or (isinstance(target, str) and target.strip().isdigit()):
        return id_selector(int(target))
    if not isinstance(target, str) or not target.strip():
        raise ActionFailed(f"not an element id or CSS selector: {target!r}")
    return target


__all__ = ["BrowserSession", "Navigation"]
