"""Chromium's operating-system processes: find ours, measure them, and kill them when all else fails.

Playwright closes the browser politely in the normal case. These helpers exist for the other cases: a
hung driver, a crash, Ctrl-C or SIGTERM while a page is loading. Each launched browser carries a unique
marker switch on its command line, so we find *our* browser among the descendants of this process (other
programs on the machine may run Chromium too) and only ever kill its process group, never our own.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import psutil

log = logging.getLogger(__name__)
MARKER_SWITCH = "--scrapesmith-instance"
PLAYWRIGHT_PROFILE_PREFIX = "playwright_chromiumdev_profile-"
_KILL_WAIT_SECONDS = 3.0


def marker_arg(instance_id: str) -> str:
    """The harmless unknown switch that tags one launched browser (Chromium ignores unknown switches)."""
    return f"{MARKER_SWITCH}={instance_id}"


def find_browser_process(instance_id: str) -> psutil.Process | None:
    """The browser process launched with ``instance_id`` among this process's descendants, if alive."""
    marker = marker_arg(instance_id)
    for child in psutil.Process().children(recursive=True):
        try:
            if marker in child.cmdline() and _is_browser_main(child):
                return child
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return None


def _is_browser_main(process: psutil.Process) -> bool:
    return not any(arg.startswith("--type=") for arg in process.cmdline())


def process_tree(pid: int) -> list[psutil.Process]:
    """``pid`` and its live descendants (renderers, GPU and network services, zygotes)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of the browser and its children together: what a memory cap should compare."""
    total = 0
    for process in process_tree(pid):
        try:
            total += process.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def renderer_pids(pid: int) -> list[int]:
    """Renderer processes of the browser ``pid`` (used to simulate and to diagnose renderer crashes)."""
    found = []
    for process in process_tree(pid):
        try:
            if "--type=renderer" in process.cmdline():
                found.append(process.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def kill_browser_tree(pid: int) -> None:
    """SIGKILL the browser ``pid`` and everything it started; waits briefly so no zombie lingers.

    Chromium is launched as a process-group leader, so killing the group also reaches helpers that were
    re-parented. Our own group is never signalled.
    """
    members = process_tree(pid)
    profile = profile_dir(pid)
    try:
        group = os.getpgid(pid)
    except ProcessLookupError:
        group = None
    if group is not None and group == pid and group != os.getpgrp():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
    for process in members:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            continue
    _wait_gone(members, _KILL_WAIT_SECONDS)
    if profile is not None:  # Playwright deletes it on a polite close only; it may hold cookies
        shutil.rmtree(profile, ignore_errors=True)


def profile_dir(pid: int) -> Path | None:
    """The temporary profile Playwright created for the browser ``pid`` (never a user's own profile)."""
    try:
        arguments = psutil.Process(pid).cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None
    for argument in arguments:
        if argument.startswith("--user-data-dir="):
            path = Path(argument.partition("=")[2])
            if path.name.startswith(PLAYWRIGHT_PROFILE_PREFIX) and path.parent == Path(tempfile.gettempdir()):
                return path
    return None


def _wait_gone(processes: list[psutil.Process], timeout: float) -> None:
    """Wait until every process has exited; a zombie counts as gone (its parent, not us, reaps it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_running(process) for process in processes):
            return
        time.sleep(0.02)


def _running(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _parent_if_our_child(pid: int) -> int | None:
    try:
        parent = psutil.Process(pid).ppid()
        return parent if psutil.Process(parent).ppid() == os.getpid() else None
    except psutil.NoSuchProcess:
        return None


class BrowserRegistry:
    """Every browser this process launched, so that exit paths can kill what polite closing missed.

    ``atexit`` covers normal exits and Ctrl-C (KeyboardInterrupt unwinds to it). SIGTERM and SIGHUP would
    otherwise end Python without ``atexit``; when their handler is still the default we install one that
    kills the browsers and then re-delivers the signal with the default action, so the exit status stays
    what the sender expects.
    """

    def __init__(self) -> None:
        self._pids: dict[str, int] = {}
        self._drivers: dict[str, int] = {}
        self._closers: dict[str, Callable[[], None]] = {}
        self._lock = threading.RLock()  # re-entrant: a signal handler may run while the main thread holds it
        self._hooked = False

    def install_hooks(self) -> None:
        """Register the exit hooks once; call from the thread that owns the program (signals need main)."""
        with self._lock:
            if self._hooked:
                return
            self._hooked = True
        atexit.register(self.close_all)
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, self._on_fatal_signal)

    def add(self, instance_id: str, pid: int, close: Callable[[], None]) -> None:
        """Track the browser ``pid``; its parent, Playwright's driver, is ended with it on a fatal signal."""
        with self._lock:
            self._pids[instance_id] = pid
            self._closers[instance_id] = close
            driver = _parent_if_our_child(pid)
            if driver is not None:
                self._drivers[instance_id] = driver

    def remove(self, instance_id: str) -> None:
        with self._lock:
            self._pids.pop(instance_id, None)
            self._drivers.pop(instance_id, None)
            self._closers.pop(instance_id, None)

    def live_pids(self) -> list[int]:
        with self._lock:
            return list(self._pids.values())

    def close_all(self) -> None:
        """Close politely where possible, then kill whatever is still running."""
        with self._lock:
            closers = list(self._closers.values())
        for close in closers:
            try:
                close()
            except Exception as exc:  # noqa: BLE001 - exiting: a failed close falls through to the kill below
                log.debug("polite browser close failed: %s", exc)
        self.kill_all()

    def kill_all(self) -> None:
        with self._lock:
            pids = list(self._pids.values())
            drivers = list(self._drivers.values())
            self._pids.clear()
            self._drivers.clear()
            self._closers.clear()
        for pid in pids:
            kill_browser_tree(pid)
        for pid in drivers:
            try:
                psutil.Process(pid).kill()
            except psutil.NoSuchProcess:
                continue

    def _on_fatal_signal(self, signum: int, frame: FrameType | None) -> None:
        self.kill_all()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


REGISTRY = BrowserRegistry()
