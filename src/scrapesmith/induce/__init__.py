"""Field scraper induction (AutoScraper): instruction + seed pages -> a ScraperSpec that replays without an LLM.

Typical use::

    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book")], seed_trees, method="heuristic")
    row = CompiledSpec(spec).row(html_text)
"""

from scrapesmith.induce.execute import CompiledSpec, parse_html
from scrapesmith.induce.heuristic import FieldRequest
from scrapesmith.induce.service import METHODS, induce_scraper
from scrapesmith.induce.spec import FieldSpec, PostProcess, ScraperSpec, SpecError

__all__ = ["METHODS", "CompiledSpec", "FieldRequest", "FieldSpec", "PostProcess", "ScraperSpec", "SpecError",
           "induce_scraper", "parse_html"]
