"""``induce_scraper``: instruction + seed pages -> :class:`ScraperSpec`, by any of the four methods.

``heuristic`` needs no model. ``autoscraper`` runs progressive generation on each seed page and synthesis
across them; ``cot`` and ``reflexion`` are the paper's baselines, run through the same synthesis. With a
model, the heuristic candidates are offered as options and join the synthesis pool, so the model chooses
and names rather than writes XPath from scratch; it writes its own only when no candidate fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from lxml import etree

from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce.evidence import FieldConcept, concept_for
from scrapesmith.induce.heuristic import induce_heuristic, rank_candidates
from scrapesmith.induce.progressive import GenerationSettings, generate_on_page
from scrapesmith.induce.scope import with_scope
from scrapesmith.induce.synthesis import SequenceCandidate, synthesize
from scrapesmith.induce.views import FieldRequest, FieldSpec, PostProcess, ScraperSpec
from scrapesmith.llm.client import require_llm
from scrapesmith.llm.types import LLM

InduceMethod = Literal["heuristic", "autoscraper", "cot", "reflexion"]
METHODS: tuple[str, ...] = ("heuristic", "autoscraper", "cot", "reflexion")
HEURISTIC_IN_POOL = 3
Progress = Callable[[str], None]


class UnknownMethod(ScrapesmithError):
    """An induction method name that does not exist."""


def _induce_field(request: FieldRequest, concept: FieldConcept, seeds: Sequence[etree._Element], llm: LLM,
                  settings: GenerationSettings) -> FieldSpec:
    ranked = rank_candidates(concept, seeds)
    hints = [s.candidate.xpath for s in ranked if s.candidate.regex is None]
    pool: list[SequenceCandidate] = []
    recognised: list[str | None] = []
    notes = []
    for root in seeds:
        generated = generate_on_page(llm, request.instruction or request.name, root, hints, settings)
        recognised.append(generated.value or None)
        if generated.actions:
            pool.append(SequenceCandidate(generated.actions, f"{settings.method}"))
        notes.append("ok" if generated.ok else ("error" if generated.error else "inconsistent"))
    pool += [SequenceCandidate([s.candidate.xpath], f"heuristic:{s.candidate.evidence}", s.candidate.regex)
             for s in ranked[:HEURISTIC_IN_POOL]]
    outcome = synthesize(pool, seeds, recognised, request.instruction or request.name, concept.multiple, llm)
    chosen = outcome.chosen
    evidence = f"{settings.method} seeds=[{', '.join(notes)}]; {outcome.reason}"
    if chosen is None:
        return FieldSpec(name=request.name, instruction=request.instruction, actions=[],
                         post=PostProcess(multiple=concept.multiple), evidence=evidence)
    return FieldSpec(name=request.name, instruction=request.instruction, actions=chosen.actions,
                     post=PostProcess(regex=chosen.regex, multiple=concept.multiple),
                     evidence=f"{evidence}; chose {chosen.origin}")


def induce_scraper(requests: Sequence[FieldRequest], seeds: Sequence[etree._Element], *,
                   method: str = "heuristic", llm: LLM | None = None, site: str = "",
                   seed_names: Sequence[str] = (), settings: GenerationSettings | None = None,
                   progress: Progress | None = None) -> ScraperSpec:
    """Induce one spec for all ``requests`` from the parsed ``seeds``."""
    if method not in METHODS:
        raise UnknownMethod(f"unknown induction method '{method}' (use {', '.join(METHODS)})")
    if not seeds:
        raise ScrapesmithError("induction needs at least one seed page")
    if method == "heuristic":
        return with_scope(induce_heuristic(requests, seeds, site=site, seed_names=seed_names), seeds)
    model = require_llm(llm, f"--method {method}")
    settings = settings or GenerationSettings()
    settings.method = method  # type: ignore[assignment]
    fields = []
    for request in requests:
        if progress:
            progress(request.name)
        fields.append(_induce_field(request, concept_for(request.name, request.instruction), seeds, model, settings))
    return with_scope(ScraperSpec(site=site, method=method, seeds=list(seed_names), fields=fields), seeds)
