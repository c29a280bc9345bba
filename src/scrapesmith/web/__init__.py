"""Getting pages: the ``Fetcher`` seam and its implementations."""

from scrapesmith.web.archive import ArchivingFetcher, WarcReplayFetcher, WarcWriter
from scrapesmith.web.content import text_problem
from scrapesmith.web.crawl import CrawlJournal, CrawlRuleError, FollowRule, crawl
from scrapesmith.web.fetch import (
    DEFAULT_ACCEPT_TYPES,
    HttpFetcher,
    RememberingFetcher,
    RoutingFetcher,
    accepts,
)
from scrapesmith.web.files import (
    HTML_SUFFIXES,
    FileFetcher,
    directory_pages,
    expand_sources,
    is_file_url,
    is_web_url,
    is_within,
    iter_sources,
)
from scrapesmith.web.page import (
    Fetcher,
    FetchError,
    HttpStatusError,
    Page,
    PrivateAddress,
    RobotsDisallowed,
    UnsupportedContent,
    parse_page,
)
from scrapesmith.web.safety import (
    AddressGuard,
    HostThrottle,
    InvalidUrl,
    RobotsFetch,
    RobotsPolicy,
    origin_of,
    redact_url,
)

__all__ = ["DEFAULT_ACCEPT_TYPES", "HTML_SUFFIXES", "AddressGuard", "ArchivingFetcher", "CrawlJournal",
           "CrawlRuleError", "FetchError", "Fetcher", "FileFetcher", "FollowRule", "HostThrottle",
           "HttpFetcher", "HttpStatusError", "InvalidUrl", "Page", "PrivateAddress", "RememberingFetcher",
           "RobotsDisallowed", "RobotsFetch", "RobotsPolicy", "RoutingFetcher", "UnsupportedContent",
           "WarcReplayFetcher", "WarcWriter", "accepts", "crawl", "directory_pages", "expand_sources",
           "is_file_url", "is_web_url", "is_within", "iter_sources", "origin_of", "parse_page", "redact_url",
           "text_problem"]
