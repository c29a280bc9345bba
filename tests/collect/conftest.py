"""Fixtures for collect: the demo web on 127.0.0.1 (real HTTP server on port 0) and a run directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scrapesmith.bench.sites import DemoServer, serve_sites


@pytest.fixture(scope="session")
def demo_web() -> Iterator[DemoServer]:
    with serve_sites() as server:
        yield server


@pytest.fixture()
def allow(demo_web: DemoServer) -> list[str]:
    return [f"{demo_web.host}:{demo_web.port}"]
