"""Specs forged on real SWDE pages, shared by the drift tests that mutate them."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.bench.drift import forge
from scrapesmith.bench.swde import discover_sites, read_page

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


@pytest.fixture(scope="session")
def auto_msn():
    """The auto-msn spec forged on its first 3 pages (no model), and its first 10 pages as they are."""
    if not (SWDE / "auto").is_dir():
        pytest.skip("SWDE pages not present")
    site = discover_sites(SWDE, ["auto-msn"])[0]
    texts = [read_page(p) for p in site.page_paths()[:10]]
    return forge(site, texts, 3), texts
