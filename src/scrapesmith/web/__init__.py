"""Getting pages: the ``Fetcher`` seam and its implementations."""

from scrapesmith.web.archive import ArchivingFetcher, WarcReplayFetcher, WarcWriter
from scrapesmith.web.crawl import CrawlJournal, CrawlRuleError, FollowRule, crawl
from scrapesmith.web.fetch import (
    DEFAULT_ACCEPT_TYPES,
    FileFetcher,
    HttpFetcher,
    RememberingFetcher,
    RoutingFetcher,
    accepts,
    expand_sources,
    is_web_url,
)
from scrapesmith.web.files import is_within, iter_sources
from scrapesmith.web.page import Fetcher, FetchError, Page, PrivateAddress, RobotsDisallowed, parse_page
from scrapesmith.web.safety import AddressGuard, RobotsPolicy, origin_of, redact_url

__all__ = [
    "DEFAULT_ACCEPT_TYPES",
    "AddressGuard",
    "ArchivingFetcher",
    "CrawlJournal",
    "CrawlRuleError",
    "FetchError",
    "Fetcher",
    "FileFetcher",
    "FollowRule",
    "HttpFetcher",
    "Page",
    "PrivateAddress",
    "RememberingFetcher",
    "RobotsDisallowed",
    "RobotsPolicy",
    "RoutingFetcher",
    "WarcReplayFetcher",
    "WarcWriter",
    "accepts",
    "crawl",
    "expand_sources",
    "is_web_url",
    "is_within",
    "iter_sources",
    "origin_of",
    "parse_page",
    "redact_url",
]
