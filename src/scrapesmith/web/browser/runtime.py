"""One Chromium process, driven from a private event-loop thread, lending isolated contexts to sessions.

Why a private loop thread: Playwright's objects belong to one thread. Running the async API on a
dedicated daemon thread lets any number of caller threads share one browser (the fetcher's concurrent
contexts), lets a caller wait with a hard wall-clock limit (a hung browser is killed, never waited on),
and keeps working when the caller itself runs inside an asyncio loop. Callers never touch Playwright
objects directly; :class:`~scrapesmith.web.browser.session.BrowserSession` is the public face.

Everything the browser loads passes the :class:`~scrapesmith.web.browser.policy.BrowserPolicy`: request
interception aborts requests to refused addresses and top-level navigations refused by robots.txt, and
the :class:`~scrapesmith.web.browser.proxy.GuardProxy` that all traffic goes through refuses redirect
hops the interception cannot see.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Self, TypeVar

import psutil

from scrapesmith.web.browser.policy import BrowserPolicy
from scrapesmith.web.browser.process import (
    REGISTRY,
    find_browser_process,
    kill_browser_tree,
    marker_arg,
    tree_rss_bytes,
)
from scrapesmith.web.browser.proxy import GuardProxy, Refusal
from scrapesmith.web.browser.tab import LOADING_MARK_JS, SAME_TAB_JS, Tab, close_popup, watch
from scrapesmith.web.browser.views import (
    CHROMIUM_ARGS,
    BrowserError,
    BrowserOptions,
    BrowserUnavailable,
    Recovery,
    first_line,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

_NON_NETWORK_SCHEMES = ("data:", "blob:", "about:", "chrome-error:")

class BrowserHung(BrowserError):
    """A call into the browser outlived the watchdog; the browser was killed so the call could end."""


class BrowserRuntime:
    """A started Chromium plus its proxy; thread-safe. Use as a context manager or call :meth:`close`."""

    def __init__(self, options: BrowserOptions | None = None, policy: BrowserPolicy | None = None) -> None:
        self.options = options or BrowserOptions()
        self.policy = policy or BrowserPolicy.from_settings()
        self.recoveries: list[Recovery] = []
        self.generation = 0
        self.launch_seconds = 0.0
        self._slots = threading.BoundedSemaphore(self.options.max_contexts)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ss-browser", daemon=True)
        self._playwright: Any = None
        self._browser: Any = None
        self._proxy: GuardProxy | None = None
        self._proxy_url = ""
        self._instance_id = ""
        self._pid: int | None = None
        self._relaunch_lock: asyncio.Lock | None = None
        self._closed = False
        self._started = False
        self._start_lock = threading.Lock()

    # -- lifecycle ---------------------------------------------------------------------------------------

    def start(self) -> Self:
        """Launch Chromium (idempotent and thread-safe); raises :class:`BrowserUnavailable` if it cannot."""
        with self._start_lock:
            if self._started:
                return self
            if self._closed:
                raise BrowserUnavailable("the browser runtime is closed")
            _check_installation(self.options.executable_path)
            REGISTRY.install_hooks()
            self._thread.start()
            self._started = True
            try:
                self.call(self._start_async, timeout=self.options.watchdog + 30)
            except BaseException:
                self.close()
                raise
        return self

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def browser_pid(self) -> int | None:
        return self._pid

    @property
    def is_closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close contexts, browser, proxy and driver; kill the process group if polite closing fails."""
        if self._closed:
            return
        self._closed = True
        if self._started and self._thread.is_alive():
            with contextlib.suppress(Exception):
                self.call(self._close_async, timeout=15)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)
            if not self._thread.is_alive():
                self._loop.close()
        if self._pid is not None:
            kill_browser_tree(self._pid)
        REGISTRY.remove(self._instance_id)

    def call(self, make: Callable[[], Awaitable[T]], timeout: float | None = None) -> T:
        """Run ``make()`` on the browser loop and return its result, waiting at most ``timeout`` seconds.

        When the wait runs out the browser is presumed hung: it is killed (which makes the stuck Playwright
        call fail promptly) and :class:`BrowserHung` is raised; the next use relaunches it.
        """
        if not self._thread.is_alive():
            raise BrowserUnavailable("the browser runtime is closed")
        future = asyncio.run_coroutine_threadsafe(make(), self._loop)  # type: ignore[arg-type]
        limit = timeout if timeout is not None else self.options.watchdog
        try:
            return future.result(limit)
        except FutureTimeout:
            self._kill_hung_browser()
            with contextlib.suppress(BaseException):
                future.result(5)
            raise BrowserHung(f"the browser did not answer within {limit:.0f}s; killed, it will restart")
        except KeyboardInterrupt:
            future.cancel()
            raise

    def acquire_slot(self, timeout: float) -> bool:
        return self._slots.acquire(timeout=timeout)

    def release_slot(self) -> None:
        with contextlib.suppress(ValueError):
            self._slots.release()

    def rss_bytes(self) -> int:
        """Resident memory of Chromium's processes together (what ``max_rss_mb`` caps)."""
        return tree_rss_bytes(self._pid) if self._pid is not None else 0

    def record(self, recovery: Recovery) -> Recovery:
        self.recoveries.append(recovery)
        log.warning("browser recovery: %s -> rebuilt %s at %s %s", recovery.kind, recovery.rebuilt,
                    recovery.url, recovery.detail)
        return recovery

    # -- loop-thread internals (coroutines, called through ``call``) --------------------------------------

    async def _start_async(self) -> None:
        from playwright.async_api import async_playwright

        self._relaunch_lock = asyncio.Lock()
        self._proxy = GuardProxy(self.policy.guard, navigation_check=self.policy.robots_refusal)
        self._proxy_url = await self._proxy.start()
        self._playwright = await async_playwright().start()
        await self._launch()

    async def _launch(self) -> None:
        from playwright.async_api import Error as PlaywrightError

        started = time.monotonic()
        self._instance_id = uuid.uuid4().hex
        try:
            self._browser = await self._playwright.chromium.launch(
                executable_path=self.options.executable_path,
                headless=self.options.headless,
                args=[*CHROMIUM_ARGS, marker_arg(self._instance_id)],
                proxy={"server": self._proxy_url},
                chromium_sandbox=False,
                handle_sigint=False,
                handle_sigterm=False,
                handle_sighup=False,
            )
        except PlaywrightError as exc:
            raise BrowserUnavailable(f"Chromium failed to start ({first_line(exc)})") from None
        self.generation += 1
        self.launch_seconds = time.monotonic() - started
        loop = asyncio.get_running_loop()
        process = await loop.run_in_executor(None, find_browser_process, self._instance_id)
        self._pid = process.pid if process is not None else None
        if self._pid is not None:
            REGISTRY.add(self._instance_id, self._pid, self.close)
        else:
            log.warning("could not find the launched Chromium's process; emergency shutdown cannot kill it")

    async def _close_async(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._browser.close(), 10)
        if self._playwright is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._playwright.stop(), 10)
        if self._proxy is not None:
            await self._proxy.close()

    def _kill_hung_browser(self) -> None:
        if self._pid is not None:
            kill_browser_tree(self._pid)

    async def ensure_browser(self, seen_generation: int) -> bool:
        """Relaunch the browser if it is gone; ``True`` when a relaunch happened since ``seen_generation``."""
        assert self._relaunch_lock is not None
        async with self._relaunch_lock:
            if self.browser_connected():
                return self.generation != seen_generation
            old_pid = self._pid
            if old_pid is not None:
                await asyncio.get_running_loop().run_in_executor(None, kill_browser_tree, old_pid)
            REGISTRY.remove(self._instance_id)
            self._pid = None
            await self._launch()
            return True

    def browser_connected(self) -> bool:
        """Connected and its process alive (a killed browser may not have reported its disconnect yet)."""
        if self._browser is None or not self._browser.is_connected():
            return False
        return self._pid is None or _running(self._pid)

    async def open_tab(self) -> Tab:
        """A fresh context (no storage, downloads refused, service workers blocked) with one page."""
        if not self.browser_connected():
            await self.ensure_browser(self.generation)
        width, height = self.options.viewport
        context = await self._browser.new_context(
            accept_downloads=False,
            service_workers="block",
            user_agent=self.options.user_agent or self.policy.user_agent,
            viewport={"width": width, "height": height},
            locale="en-US",
        )
        context.set_default_timeout(self.options.action_timeout * 1000)
        context.set_default_navigation_timeout(self.options.page_timeout * 1000)
        await context.add_init_script(SAME_TAB_JS)
        await context.add_init_script(LOADING_MARK_JS)
        page = await context.new_page()
        tab = Tab(context=context, page=page, generation=self.generation)
        await context.route("**/*", lambda route, request: self._intercept(tab, route, request))
        context.on("page", lambda popup: close_popup(tab, popup))
        watch(tab)
        return tab

    async def new_page(self, tab: Tab) -> None:
        """Replace a crashed or closed page inside a still-open context."""
        if not tab.page.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(tab.page.close(run_before_unload=False), 5)
        tab.opening_page = True
        try:
            tab.page = await tab.context.new_page()
        finally:
            tab.opening_page = False
        tab.crashed = tab.closed = False
        tab.inflight.clear()
        watch(tab)

    async def close_tab(self, tab: Tab) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(tab.context.close(), 5)

    async def _intercept(self, tab: Tab, route: Any, request: Any) -> None:
        url = request.url
        if url.startswith(_NON_NETWORK_SCHEMES):
            await route.continue_()
            return
        top_level = request.is_navigation_request() and _is_main_frame(request)
        own = top_level and tab.own_navigation is not None and _same_url(tab.own_navigation, url)
        loop = asyncio.get_running_loop()
        check = self.policy.navigation_refusal if top_level and not own else self.policy.address_refusal
        refusal = await loop.run_in_executor(None, check, url)
        if refusal is not None:
            tab.refusals.append(refusal)
            if top_level:
                tab.refused_navigations += 1
                tab.last_refused_navigation = refusal
            with contextlib.suppress(Exception):
                await route.abort("blockedbyclient")
            return
        if top_level and not own:
            await loop.run_in_executor(None, self.policy.wait_turn, url)
        with contextlib.suppress(Exception):
            await route.continue_()

    def proxy_refusal(self, url: str) -> Refusal | None:
        return self._proxy.refusal_for(url) if self._proxy is not None else None


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _is_main_frame(request: Any) -> bool:
    try:
        return request.frame.parent_frame is None
    except Exception:  # noqa: BLE001 - service-worker requests have no frame; treat as subresources
        return False


def _same_url(a: str, b: str) -> bool:
    return a.split("#", 1)[0].rstrip("/") == b.split("#", 1)[0].rstrip("/")


def _check_installation(executable: str) -> None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise BrowserUnavailable(
            "Playwright is not installed: pip install playwright (the 'browser' extra of scrapesmith)"
        ) from None
    if not os.access(executable, os.X_OK):
        raise BrowserUnavailable(
            f"Chromium not found at {executable}: run 'make chromium' (Debian: apt-get install chromium) "
            "or set SCRAPESMITH_CHROMIUM to a Chromium binary"
        )
