"""Clean shutdown (normal close, Ctrl-C, SIGTERM), the cap on open contexts, and the memory cap."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from browser_helpers import FAST, local_policy

from scrapesmith.web.browser import (
    BrowserBusy,
    BrowserFetcher,
    BrowserOptions,
    BrowserRuntime,
    BrowserSession,
)
from scrapesmith.web.browser.process import process_tree, profile_dir

pytestmark = pytest.mark.browser

CHILD = textwrap.dedent("""
    import sys, time
    from scrapesmith.web.browser import BrowserOptions, BrowserPolicy, BrowserSession
    from scrapesmith.web.browser.process import process_tree, profile_dir
    policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0.0)
    session = BrowserSession(options=BrowserOptions(), policy=policy).open()
    session.goto(sys.argv[1])
    pids = [p.pid for p in process_tree(session.runtime.browser_pid)]
    print(profile_dir(session.runtime.browser_pid), *pids, flush=True)
    time.sleep(60)
""")


def alive(pids: list[int]) -> list[int]:
    living = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                living.append(pid)
        except psutil.NoSuchProcess:
            continue
    return living


def test_closing_leaves_no_chromium_process(demo_web):
    fetcher = BrowserFetcher(options=FAST, policy=local_policy())
    assert fetcher.runtime.browser_pid is None  # the browser starts with the first page
    page = fetcher.fetch(demo_web.url("/acme/"))
    pids = [p.pid for p in process_tree(fetcher.runtime.browser_pid)]
    profile = profile_dir(fetcher.runtime.browser_pid)
    fetcher.close()
    assert page.via == "browser"
    assert len(pids) > 2  # browser, zygotes, renderer, utility processes
    assert alive(pids) == []
    assert profile is not None and not profile.exists()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_interrupted_program_leaves_no_chromium_process(demo_web, signum):
    command = [sys.executable, "-c", CHILD, demo_web.url("/acme/")]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        profile, *numbers = child.stdout.readline().split()
        pids = [int(pid) for pid in numbers]
        assert pids and Path(profile).is_dir(), "the child did not start its browser"
        child.send_signal(signum)
        child.wait(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
    deadline = time.monotonic() + 5
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive(pids) == []
    assert not Path(profile).exists()  # the temporary profile (cookies, cache) is gone too
    assert child.returncode != 0


@pytest.fixture(scope="module")
def tight() -> Iterator[BrowserRuntime]:
    """One context at most, and a memory cap every browser exceeds."""
    options = BrowserOptions(
        max_contexts=1, max_rss_mb=1, page_timeout=3, action_timeout=1, settle_timeout=0.5
    )
    with BrowserRuntime(options, local_policy()) as runtime:
        yield runtime


def test_context_cap_refuses_a_session_beyond_it(tight):
    with BrowserSession(tight), pytest.raises(BrowserBusy):
        BrowserSession(tight).open()
    with BrowserSession(tight) as reopened:  # the slot is free again once the first session closed
        assert reopened.url == "about:blank"


def test_memory_cap_recycles_the_context(tight, demo_web):
    with BrowserSession(tight) as session:
        session.goto(demo_web.url("/acme/"))
        session.goto(demo_web.url("/acme/careers/"))
        assert session.count("h1") >= 1
    assert [r.kind for r in session.recoveries] == ["memory", "memory"]


def test_context_is_recycled_after_its_page_budget_keeping_cookies(runtime, demo_web):
    with BrowserSession(runtime, recycle_after=2) as session:
        session.goto(demo_web.url("/acme/"))
        runtime.call(lambda: session._tab.context.add_cookies(
            [{"name": "seen", "value": "1", "url": demo_web.url("/")}]))
        first_context = session._tab.context
        for path in ("/acme/careers/", "/proceedings/"):
            session.goto(demo_web.url(path))
        cookies = runtime.call(lambda: session._tab.context.cookies())
        assert session._tab.context is not first_context
    assert [r.kind for r in session.recoveries] == ["page-budget"]
    assert [c["name"] for c in cookies] == ["seen"]
