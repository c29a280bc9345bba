"""Getting pages: the ``Fetcher`` seam and its implementations."""

from scrapesmith.web.page import Fetcher, FetchError, Page, parse_page

__all__ = ["FetchError", "Fetcher", "Page", "parse_page"]
