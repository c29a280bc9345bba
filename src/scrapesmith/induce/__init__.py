"""induce (AutoScraper): field-scraper induction, the one engine that finds fields on detail-like pages.

Given field requests (a name and an instruction) and a few seed pages, it proposes candidate XPaths from
page evidence (labels, value types, headings, attributes), executes each on every seed, and synthesises
the action sequence that works across them; a model, when there is one, chooses among the candidates.
The result is a :class:`ScraperSpec` that replays with no LLM::

    spec = induce_scraper([FieldRequest("isbn_13", "the ISBN-13 of the book")], seed_trees, method="heuristic")
    row = CompiledSpec(spec).row(html_text)
"""

from scrapesmith.induce.choose import GATED_PATHS, choose_path
from scrapesmith.induce.choose_gate import GATE_PATH, use_gate
from scrapesmith.induce.confidence import CHECK_ONLY, CHECKS, ConfidenceModel, check_holds, use_confidence
from scrapesmith.induce.confidence import MODEL_PATH as SHIPPED_CONFIDENCE
from scrapesmith.induce.confidence import signals as confidence_signals
from scrapesmith.induce.examples import Example, generalise, induce_from_examples, kind_of, parse_example
from scrapesmith.induce.execute import CompiledSpec, normalize_space, parse_for_replay, post_process
from scrapesmith.induce.field_evidence import concept_for, recogniser
from scrapesmith.induce.heal import (
    EvidenceHeal,
    HealError,
    HealResult,
    heal_from_run,
    heal_from_sources,
    heal_spec,
    next_version_path,
)
from scrapesmith.induce.heuristic import field_spec_from, rank_candidates, trusted
from scrapesmith.induce.pages import SpecPages
from scrapesmith.induce.profile import check_dataset, with_profile
from scrapesmith.induce.ranking import MODEL_PATH as SHIPPED_RANKER
from scrapesmith.induce.ranking import RankerModel, use_ranker
from scrapesmith.induce.read import CALLS_AT_MOST as READ_CALLS_AT_MOST
from scrapesmith.induce.read import read_choice, read_path
from scrapesmith.induce.scraper import Scraper
from scrapesmith.induce.service import (
    METHODS,
    BadSeedPage,
    FetchProgress,
    induce_from_sources,
    induce_scraper,
)
from scrapesmith.induce.training import described_candidates
from scrapesmith.induce.views import FieldRequest, FieldSpec, PostProcess, ScraperSpec, SpecError

__all__ = [
    "CHECKS",
    "CHECK_ONLY",
    "GATED_PATHS",
    "GATE_PATH",
    "METHODS",
    "READ_CALLS_AT_MOST",
    "SHIPPED_CONFIDENCE",
    "SHIPPED_RANKER",
    "BadSeedPage",
    "CompiledSpec",
    "ConfidenceModel",
    "EvidenceHeal",
    "Example",
    "FetchProgress",
    "FieldRequest",
    "FieldSpec",
    "HealError",
    "HealResult",
    "PostProcess",
    "RankerModel",
    "Scraper",
    "ScraperSpec",
    "SpecError",
    "SpecPages",
    "check_dataset",
    "check_holds",
    "choose_path",
    "concept_for",
    "confidence_signals",
    "described_candidates",
    "field_spec_from",
    "generalise",
    "heal_from_run",
    "heal_from_sources",
    "heal_spec",
    "induce_from_examples",
    "induce_from_sources",
    "induce_scraper",
    "kind_of",
    "next_version_path",
    "normalize_space",
    "parse_example",
    "parse_for_replay",
    "post_process",
    "rank_candidates",
    "read_choice",
    "read_path",
    "recogniser",
    "trusted",
    "use_confidence",
    "use_gate",
    "use_ranker",
    "with_profile",
]
