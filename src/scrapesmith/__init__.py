"""scrapesmith: forge reusable scraping programs with an LLM, then run them without it.

The library's front door is :class:`Scraper` (``from scrapesmith import Scraper``; it lives in
:mod:`scrapesmith.induce`): induce a scraper from pages and field descriptions or example values, extract rows,
save and load it. Everything else is reached through its package (``scrapesmith.lists``, ``scrapesmith.io`` …).
"""

from typing import Any

__version__ = "0.1.0"
__all__ = ["Scraper", "__version__"]


def __getattr__(name: str) -> Any:
    """``Scraper`` is imported on first use, so ``import scrapesmith.errors`` stays light."""
    if name == "Scraper":
        from scrapesmith.induce import Scraper

        return Scraper
    raise AttributeError(f"module 'scrapesmith' has no attribute {name!r}")
