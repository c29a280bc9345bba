"""``--method choose``: the heuristic proposes and ranks, the model chooses where the evidence disagrees.

For each field the ranked candidates (:func:`scrapesmith.induce.heuristic.rank_candidates`) are reduced to
the best few that extract *different* values (their first value differs on some seed) and pass the hard
checks. The model is asked in two cases, once per field at most:

* **no label names the field** and the evidence is weak or absent (nothing found, or the best candidate
  was found by a class, a heading or its values' look and scores under a third of a clean label match):
  the model sees the label → value pairs every seed page prints (``pairs.py``: table rows, definition
  lists, "Label: value" texts) with their values on each page, after the evidence's own best candidates,
  and names the one that is the field ("Institutional Control" for a university's type), or none. Only
  pairs that extract on every seed and whose values are all of the field's kind are offered, so its
  answer never overrules a hard check; the pair's value is then cleaned as the ranking cleans any
  candidate's;
* **the evidence is split**: the best two distinct candidates are within a factor of two; the model sees
  each candidate's values on every seed page and the text around its node on the first page.

Either way it answers one number from an enum (JSON-schema grammar): an option, or ``-1`` to reject them
all. A small model thus never writes an XPath and can never pick outside the list; a failed call keeps
the heuristic's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from scrapesmith.induce.evidence import FieldConcept
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.heuristic import MIN_SCORE, ScoredCandidate, rank_pool, trusted
from scrapesmith.induce.kinds import with_unit
from scrapesmith.induce.pairs import shared_pairs
from scrapesmith.induce.views import FieldRequest
from scrapesmith.llm.structured import ask_json
from scrapesmith.llm.templates import render_prompt
from scrapesmith.llm.types import LLM, LLMError

SHOWN = 5
CLEAR_LEAD = 2.0
# under a third of a clean label match: a value the same on every seed, several where one is asked, or one
# found by its look alone far from the record's heading
WEAK_EVIDENCE = 0.3
NAMED_BY_LABEL = frozenset({"label", "qualified", "section"})
EVIDENCE_SHOWN = 2
PAIRS_SHOWN = 15
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
                     seeds: Sequence[etree._Element], urls: Sequence[str] = ()) -> Choice:
    """The model's choice among ``ranked`` for ``request`` (see the module docstring)."""
    options = distinct_options([s for s in ranked if trusted(s, len(seeds))])
    if unnamed(options, concept):
        pairs = label_options(concept, seeds, options[:EVIDENCE_SHOWN], urls)
        if pairs:
            return _ask_labels(llm, request, concept, options[:EVIDENCE_SHOWN], pairs, seeds)
    if not options:
        return Choice(None, False, "no candidate passes the checks")
    if len(options) == 1 or options[0].score >= CLEAR_LEAD * options[1].score:
        return Choice(options[0], False, "evidence clear; no model call")
    prompt = render_prompt("induce_choose", field=request.name, instruction=request.instruction or request.name,
                           multiple=concept.multiple, candidates=describe(options, seeds))
    return _answer(llm, prompt, options, "evidence close", options[0])


def unnamed(options: Sequence[ScoredCandidate], concept: FieldConcept) -> bool:
    """Is the field named by no label on the pages, with weak or no evidence for it otherwise? (A headline
    field is named by the page's title, not by a label.)"""
    if concept.headline:
        return False
    return not options or (options[0].candidate.evidence not in NAMED_BY_LABEL and options[0].score < WEAK_EVIDENCE)


def label_options(concept: FieldConcept, seeds: Sequence[etree._Element], shown: Sequence[ScoredCandidate],
                  urls: Sequence[str] = ()) -> list[tuple[str, ScoredCandidate]]:
    """The pairs every seed prints, each with its label and as its best cleaned candidate, that pass the hard
    checks: they extract on every seed, every value is of the field's kind, and they answer other than
    ``shown``."""
    labels = {p.xpath: p.label for p in shared_pairs(seeds)}
    candidates = {c.key: c for c in (p.candidate() for p in shared_pairs(seeds))}
    best: dict[str, ScoredCandidate] = {}
    for scored in rank_pool(candidates, dict.fromkeys(candidates, len(seeds)), concept, seeds, urls):
        best.setdefault(scored.candidate.xpath, scored)
    found: list[tuple[str, ScoredCandidate]] = []
    for xpath, label in labels.items():
        scored = best.get(xpath)
        if scored is None or not all(scored.values) or not trusted(scored, len(seeds)):
            continue
        flat = [with_unit(v, scored.candidate.unit) for page in scored.values for v in page]
        if all(concept.matches_type(v) is not False for v in flat) and not any(
                _same_answer(scored, other) for other in [*shown, *(o for _, o in found)]):
            found.append((label, scored))
    return found[:PAIRS_SHOWN]


def _ask_labels(llm: LLM, request: FieldRequest, concept: FieldConcept, shown: Sequence[ScoredCandidate],
                pairs: Sequence[tuple[str, ScoredCandidate]], seeds: Sequence[etree._Element]) -> Choice:
    named = [(f"(found by its {o.candidate.evidence}, in \"{context_of(seeds[0], o.candidate.xpath)[:VALUE_CHARS]}\")",
              o) for o in shown] + list(pairs)
    options = [{"index": i, "label": label, "per_page": [[v[:VALUE_CHARS] for v in page[:3]] for page in o.values]}
               for i, (label, o) in enumerate(named)]
    prompt = render_prompt("induce_choose_label", field=request.name,
                           instruction=request.instruction or request.name, multiple=concept.multiple,
                           options=options)
    return _answer(llm, prompt, [o for _, o in named], "no label names the field", shown[0] if shown else None)


def _answer(llm: LLM, prompt: str, options: Sequence[ScoredCandidate], why: str,
            fallback: ScoredCandidate | None) -> Choice:
    schema = {"title": "choice", "type": "object", "additionalProperties": False, "required": ["choice"],
              "properties": {"choice": {"enum": [*range(len(options)), REJECT]}}}
    try:
        answer = int(ask_json(llm, prompt, schema, stage="induce.choose", max_tokens=32)["choice"])
    except (LLMError, KeyError, TypeError, ValueError):
        return Choice(fallback, True, "model answer unusable; heuristic choice kept")
    if answer == REJECT:
        return Choice(None, True, f"the model rejected all {len(options)} options ({why})")
    return Choice(options[answer], True, f"model chose {answer} of {len(options)} ({why})")
