"""The local demo web (placeholder docstring, replaced below)."""

from scrapesmith.bench.sites.collection import SiteCollection, build_sites
from scrapesmith.bench.sites.models import Response, SiteSummary
from scrapesmith.bench.sites.server import DemoServer, RequestLog, SiteServerError, serve_sites

__all__ = ["DemoServer", "RequestLog", "Response", "SiteCollection", "SiteServerError", "SiteSummary",
           "build_sites", "serve_sites"]
