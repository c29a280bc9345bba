"""OHCache (AutoData section 3.2): oriented message hypergraph, hyperedge formatter, local artifact cache."""

from scrapesmith.collect.ohcache.cache import ArtifactCache, CacheMiss
from scrapesmith.collect.ohcache.formatter import FormatRejected, HyperedgeFormatter
from scrapesmith.collect.ohcache.hypergraph import ROUTES, MessageHypergraph

__all__ = ["ROUTES", "ArtifactCache", "CacheMiss", "FormatRejected", "HyperedgeFormatter", "MessageHypergraph"]
