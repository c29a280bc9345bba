"""Fixtures shared by every test package.

``demo_sites`` is the local demo web (``scrapesmith.bench.sites``) served once per test session on
127.0.0.1 with a free port, so tests fetch real pages with known ground truth and never leave the machine.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scrapesmith.bench.sites import DemoServer, serve_sites


@pytest.fixture(scope="session")
def demo_sites() -> Iterator[DemoServer]:
    """The running demo web: ``.base_url``, ``.url(path)``, ``.sites`` (truth, urls) and ``.request_log``."""
    with serve_sites(port=0, seed=7) as server:
        yield server
