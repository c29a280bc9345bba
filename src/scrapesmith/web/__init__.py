"""Getting pages: the ``Fetcher`` seam and its implementations."""

from scrapesmith.web.page import Fetcher, FetchError, Page

__all__ = ["FetchError", "Fetcher", "Page"]
