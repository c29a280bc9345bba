"""induce (AutoScraper): field-scraper induction, the one engine that finds fields on detail-like pages.

Given field requests (a name and an instruction) and a few seed pages, it proposes candidate XPaths from
page evidence (labels, value types, headings, attributes), executes each on every seed, and synthesises
the action sequence that works across them; a model, when there is one, chooses among the candidates.
The result is a :class:`ScraperSpec` that replays with no LLM::

    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book")], seed_trees, method="heuristic")
    row = CompiledSpec(spec).row(html_text)
"""

from scrapesmith.induce.examples import Example, induce_from_examples, parse_example
from scrapesmith.induce.execute import CompiledSpec
from scrapesmith.induce.service import METHODS, induce_scraper
from scrapesmith.induce.views import FieldRequest, FieldSpec, PostProcess, ScraperSpec, SpecError

__all__ = ["METHODS", "CompiledSpec", "Example", "FieldRequest", "FieldSpec", "PostProcess", "ScraperSpec",
           "SpecError", "induce_from_examples", "induce_scraper", "parse_example"]
