"""Fixtures for collect: the demo web on 127.0.0.1 (real HTTP server on port 0) and a run directory."""

from __future__ import annotations

import pytest

from scrapesmith.sites import DemoServer


@pytest.fixture()
def allow(demo_web: DemoServer) -> list[str]:
    return [f"{demo_web.host}:{demo_web.port}"]
