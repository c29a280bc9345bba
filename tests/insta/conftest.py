"""Fixtures of the InSTA tests: one Chromium for the module's browser tests, loopback only."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from scrapesmith.web.browser_models import BrowserOptions


def _chromium() -> str:
    path = BrowserOptions().executable_path
    if not shutil.which(path):
        pytest.skip(f"Chromium not found at {path}")
    return path


@pytest.fixture(scope="session")
def browser_runtime() -> Iterator[object]:
    from scrapesmith.web.browser_policy import BrowserPolicy
    from scrapesmith.web.browser_runtime import BrowserRuntime

    _chromium()
    policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    options = BrowserOptions(settle_timeout=1.0, idle_quiet=0.05)
    with BrowserRuntime(options, policy) as runtime:
        yield runtime


@pytest.fixture
def browser_session(browser_runtime) -> Iterator[object]:
    from scrapesmith.web.browser_session import BrowserSession

    with BrowserSession(browser_runtime) as session:
        yield session


@pytest.fixture(scope="session")
def demo_web() -> Iterator[object]:
    """The bundled demo web on 127.0.0.1: the pipeline's stand-in for the internet."""
    from scrapesmith.bench.sites.server import serve_sites

    with serve_sites() as server:
        yield server
