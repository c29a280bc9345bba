"""Synthesis (AutoScraper section 4.3): one action sequence for the whole site out of several candidates.

Every candidate sequence (one per seed page from progressive generation, plus the best heuristic
candidates) is executed on every seed page. Sequences that extract on all seeds survive; among them the
one whose results agree with the values the model recognised on the most seeds wins. Only when several
survivors tie on agreement yet extract different things is the model asked to discriminate (the paper's
synthesis prompt); a bad or missing answer falls back to the deterministic order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree
from pydantic import BaseModel, Field

from scrapesmith.induce.execute import XPathSyntaxError, post_process, run_actions
from scrapesmith.induce.progressive import consistent
from scrapesmith.induce.views import PostProcess
from scrapesmith.llm import LLM, LLMError, ask_structured, render_prompt

MAX_SHOWN = 5


class SynthesisReply(BaseModel):
    thought: str = Field(default="", max_length=200)
    number: int | str = 0


@dataclass
class SequenceCandidate:
    """An action sequence with its post-processing, where it came from, and what it extracts."""

    actions: list[str]
    origin: str
    regex: str | None = None
    results: list[list[str]] | None = None
    split: str | None = None

    @property
    def key(self) -> tuple[tuple[str, ...], str | None, str | None]:
        return tuple(self.actions), self.regex, self.split


@dataclass
class SynthesisOutcome:
    chosen: SequenceCandidate | None
    survivors: int
    asked_model: bool
    reason: str


def execute_on_seeds(candidate: SequenceCandidate, seeds: Sequence[etree._Element], multiple: bool) -> None:
    post = PostProcess(regex=candidate.regex, multiple=multiple, split=candidate.split)
    try:
        candidate.results = [post_process(run_actions(root, candidate.actions), post) for root in seeds]
    except XPathSyntaxError:
        candidate.results = [[] for _ in seeds]


def agreement(candidate: SequenceCandidate, recognised: Sequence[str | None]) -> int:
    """On how many seeds the candidate extracts exactly the value the model recognised there."""
    return sum(bool(v) and consistent(r, v) for r, v in zip(candidate.results or [], recognised, strict=False))


def _ask_model(llm: LLM, instruction: str, tied: list[SequenceCandidate]) -> SequenceCandidate | None:
    shown = tied[:MAX_SHOWN]
    prompt = render_prompt(
        "induce_synthesis", instruction=instruction,
        candidates=[{"actions": c.actions, "results": [r[:3] for r in c.results or []]} for c in shown],
    )
    try:
        reply = ask_structured(llm, prompt, SynthesisReply, stage="induce.synthesis", max_tokens=200)
    except LLMError:
        return None
    try:
        number = int(str(reply.number).strip())
    except ValueError:
        return None
    return shown[number] if 0 <= number < len(shown) else None


def synthesize(candidates: Sequence[SequenceCandidate], seeds: Sequence[etree._Element],
               recognised: Sequence[str | None], instruction: str, multiple: bool,
               llm: LLM | None = None) -> SynthesisOutcome:
    """Choose the sequence most likely to work on the site's other pages."""
    unique: dict[tuple, SequenceCandidate] = {}
    for candidate in candidates:
        if candidate.actions and candidate.key not in unique:
            unique[candidate.key] = candidate
    pool = list(unique.values())
    for candidate in pool:
        execute_on_seeds(candidate, seeds, multiple)
    coverage = {id(c): sum(bool(r) for r in c.results or []) for c in pool}
    best_coverage = max(coverage.values(), default=0)
    if best_coverage == 0:
        return SynthesisOutcome(None, 0, False, "no candidate extracts on any seed page")
    survivors = [c for c in pool if coverage[id(c)] == best_coverage]
    top = max(agreement(c, recognised) for c in survivors)
    tied = [c for c in survivors if agreement(c, recognised) == top]
    distinct = {tuple(tuple(r) for r in c.results or []) for c in tied}
    reason = f"{len(survivors)} extract on {best_coverage}/{len(seeds)} seeds; {len(tied)} agree on {top}"
    if len(distinct) > 1 and llm is not None:
        picked = _ask_model(llm, instruction, tied)
        if picked is not None:
            return SynthesisOutcome(picked, len(survivors), True, reason + "; chosen by the model")
        return SynthesisOutcome(tied[0], len(survivors), True, reason + "; model answer unusable, first kept")
    return SynthesisOutcome(tied[0], len(survivors), False, reason)
