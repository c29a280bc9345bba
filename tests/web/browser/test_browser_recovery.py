"""Lifecycle failures are repaired and reported, never hung on: crashed renderers, killed browsers, and a
page that spins forever. These tests break browsers on purpose, so they use their own runtime."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator

import pytest
from browser_helpers import TrapHandler, local_policy

from scrapesmith.web.browser import BrowserOptions, BrowserRuntime, BrowserSession, PageCrashed
from scrapesmith.web.browser.process import process_tree, renderer_pids

pytestmark = pytest.mark.browser

CARDS = "#job-list li.job-card"


TIGHT = BrowserOptions(action_timeout=1.0, page_timeout=6.0, settle_timeout=0.5, watchdog_margin=1.0)


@pytest.fixture(scope="module")
def fragile() -> Iterator[BrowserRuntime]:
    runtime = BrowserRuntime(TIGHT, local_policy()).start()
    yield runtime
    runtime.close()


def crash_renderer(session: BrowserSession) -> None:
    """Chrome's own crash switch (what chrome://crash does), sent over the DevTools protocol."""
    async def crash(tab) -> None:
        cdp = await tab.context.new_cdp_session(tab.page)
        pending = asyncio.ensure_future(cdp.send("Page.crash"))  # a crashed target never answers
        for _ in range(100):
            if tab.crashed:
                break
            await asyncio.sleep(0.05)
        pending.cancel()

    session.runtime.call(lambda: crash(session._tab))


def test_crashed_renderer_is_rebuilt_and_reported(fragile, demo_web):
    with BrowserSession(fragile) as session:
        url = demo_web.url("/globex/careers/")
        session.goto(url)
        crash_renderer(session)

        with pytest.raises(PageCrashed) as failure:
            session.click("#load-more")

        assert failure.value.recovery.kind == "page-crashed"
        assert session.recoveries[-1].url == url
        assert session.url == url and session.count(CARDS) == 6  # reloaded and rendered again
        session.click("#load-more")
        assert session.count(CARDS) == 12


def test_killed_renderer_process_is_recovered_by_the_next_navigation(fragile, demo_web):
    with BrowserSession(fragile) as session:
        session.goto(demo_web.url("/acme/"))
        victims = renderer_pids(fragile.browser_pid)
        assert victims
        for pid in victims:
            os.kill(pid, signal.SIGKILL)

        navigation = session.goto(demo_web.url("/acme/careers/"))

        assert navigation.status == 200
        assert session.recoveries and session.recoveries[-1].kind == "page-crashed"


def test_killed_browser_is_relaunched(fragile, demo_web):
    with BrowserSession(fragile) as session:
        session.goto(demo_web.url("/acme/"))
        old_pid = fragile.browser_pid
        os.kill(old_pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while fragile.browser_connected() and time.monotonic() < deadline:
            time.sleep(0.05)

        navigation = session.goto(demo_web.url("/acme/careers/"))

        assert navigation.status == 200
        assert fragile.browser_pid != old_pid
        assert session.recoveries[-1].kind == "browser-gone"
        assert session.recoveries[-1].rebuilt == "browser"
        assert process_tree(old_pid) == []


def test_a_page_that_spins_forever_trips_the_watchdog_instead_of_hanging(fragile, trap_url, demo_web):
    with BrowserSession(fragile) as session:
        TrapHandler.served["/spinning"].clear()
        session.goto(f"{trap_url}/spin")
        assert TrapHandler.served["/spinning"].wait(30), "the page never started its endless loop"
        started = time.monotonic()

        with pytest.raises(PageCrashed) as failure:
            session.snapshot()  # evaluating script in a busy renderer never returns

        assert time.monotonic() - started < TIGHT.watchdog + 10
        assert failure.value.recovery.kind == "browser-hung"
        assert session.goto(demo_web.url("/acme/")).status == 200
