from pathlib import Path

import pytest

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
SWDE_PAGES = SWDE / "book" / "book-booksamillion"


@pytest.fixture
def swde_page() -> bytes:
    if not SWDE_PAGES.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    return (SWDE_PAGES / "0000.htm").read_bytes()


@pytest.fixture
def swde_dir() -> Path:
    if not SWDE_PAGES.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    return SWDE.resolve()
