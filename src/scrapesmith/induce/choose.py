"""``--method choose``: the heuristic proposes and ranks, the model chooses where the evidence disagrees.

For each field the ranked candidates (:func:`scrapesmith.induce.heuristic.rank_candidates`) are reduced to
the best few that extract *different* values (their first value differs on some seed) and pass the hard
checks. When the best one is clearly
ahead, or alone, it is kept with no model call. Otherwise the model is shown each candidate's values on
every seed page and the text around its node on the first page, and answers with one number from an
enum (JSON-schema grammar): a candidate, or ``-1`` to reject them all. A small model thus never writes
an XPath and can never pick outside the list; a failed call keeps the heuristic's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from scrapesmith.induce.evidence import FieldConcept
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.heuristic import MIN_SCORE, ScoredCandidate, trusted
from scrapesmith.induce.views import FieldRequest
from scrapesmith.llm.structured import ask_json
from scrapesmith.llm.templates import render_prompt
from scrapesmith.llm.types import LLM, LLMError

SHOWN = 5
CLEAR_LEAD = 2.0
CONTEXT_CHARS = 120
VALUE_CHARS = 60
REJECT = -1


@dataclass
class Choice:
    """The chosen candidate (None when rejected or none exists), whether the model was asked, and why."""

    chosen: ScoredCandidate | None
    asked: bool
    reason: str


def distinct_options(ranked: Sequence[ScoredCandidate], limit: int = SHOWN) -> list[ScoredCandidate]:
    """The best candidate for each distinct answer: candidates whose first values agree on every seed (equal,
    or one holding the other) point at the same thing; how much of it to keep is the heuristic's call."""
    options: list[ScoredCandidate] = []
    for scored in ranked:
        if scored.score < MIN_SCORE or any(_same_answer(scored, kept) for kept in options):
            continue
        options.append(scored)
        if len(options) >= limit:
            break
    return options


def _same_answer(a: ScoredCandidate, b: ScoredCandidate) -> bool:
    """On every seed, the first values are equal or one holds the other ("Ann" and "Ann and Bo")."""
    firsts = [(x[0] if x else "", y[0] if y else "") for x, y in zip(a.values, b.values, strict=False)]
    return all(u == v or (u and v and (u in v or v in u)) for u, v in firsts)


def context_of(root: etree._Element, xpath: str) -> str:
    """The text around a candidate's first node: its parent's text, where labels and neighbours are."""
    nodes = value_nodes(root, xpath)
    if not nodes:
        return ""
    holder = nodes[0].getparent() if nodes[0].getparent() is not None else nodes[0]
    return normalize_space(holder.text_content())[:CONTEXT_CHARS]


def describe(options: Sequence[ScoredCandidate], seeds: Sequence[etree._Element]) -> list[dict]:
    return [{"index": i, "evidence": o.candidate.evidence,
             "per_page": [[v[:VALUE_CHARS] for v in page[:3]] for page in o.values],
             "context": context_of(seeds[0], o.candidate.xpath)} for i, o in enumerate(options)]


def choose_candidate(llm: LLM, request: FieldRequest, concept: FieldConcept, ranked: Sequence[ScoredCandidate],
                     seeds: Sequence[etree._Element]) -> Choice:
    """The model's choice among ``ranked`` for ``request`` (see the module docstring)."""
    options = distinct_options([s for s in ranked if trusted(s, len(seeds))])
    if not options:
        return Choice(None, False, "no candidate passes the checks")
    if len(options) == 1 or options[0].score >= CLEAR_LEAD * options[1].score:
        return Choice(options[0], False, "evidence clear; no model call")
    prompt = render_prompt("induce_choose", field=request.name, instruction=request.instruction or request.name,
                           multiple=concept.multiple, candidates=describe(options, seeds))
    schema = {"title": "choice", "type": "object", "additionalProperties": False, "required": ["choice"],
              "properties": {"choice": {"enum": [*range(len(options)), REJECT]}}}
    try:
        answer = int(ask_json(llm, prompt, schema, stage="induce.choose", max_tokens=32)["choice"])
    except (LLMError, KeyError, TypeError, ValueError):
        return Choice(options[0], True, "model answer unusable; heuristic choice kept")
    if answer == REJECT:
        return Choice(None, True, f"the model rejected all {len(options)} candidates")
    return Choice(options[answer], True, f"model chose {answer} of {len(options)} (evidence close)")
