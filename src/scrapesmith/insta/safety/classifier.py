"""The safety filter: deterministic evidence first, then the model as a classifier over that evidence.

1. Evidence (:mod:`.evidence` for the domain, :mod:`.landing` for the landing page). Strong evidence of
   one unsafe category, or two weak findings of it, refuses the site; no model is asked, since its
   answer could not change the verdict (refusal wins).
2. Otherwise the model, if any, is asked once (one retry on a malformed reply) for
   ``{reason, category, unsafe}`` under a JSON schema, shown the domain's words, the landing page and
   every finding. An answer that says unsafe, or names an unsafe category, refuses the site — refusal
   wins when the two disagree. Weak evidence is doubt, not a refusal: the model settles it.
3. With no model, or when the model's reply cannot be read, doubt refuses (the seed's proposer is told
   "if you are unsure whether a domain is safe, please skip it") and a site with no weak or strong
   evidence passes. ``settle_doubt=False`` makes doubt refuse even with a model.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scrapesmith.insta.safety.domain_evidence import domain_evidence, split_domain, tokens
from scrapesmith.insta.safety.knowledge import FRAMINGS, Framing, knowledge_evidence
from scrapesmith.insta.safety.landing import describe_landing, landing_evidence
from scrapesmith.insta.safety.views import (
    CATEGORIES,
    SITE_KINDS,
    Evidence,
    LandingSnapshot,
    ModelOpinion,
    SafetyVerdict,
    SiteDescription,
)
from scrapesmith.llm import LLM, LLMError, ask_structured, current_ledger, render_prompt

STAGE = "insta.safety"


@dataclass(frozen=True)
class Assessment:
    """What the evidence alone says: ``unsafe``, ``doubtful`` or ``clear``, with the category and why."""

    status: str
    category: str = "safe"
    reason: str = ""


def assess(evidence: list[Evidence]) -> Assessment:
    """Strong evidence (or two weak findings of one category) is unsafe; one weak finding is doubtful."""
    strong = [item for item in evidence if item.strength == "strong"]
    if strong:
        return Assessment("unsafe", strong[0].category, strong[0].line())
    weak = [item for item in evidence if item.strength == "weak"]
    counts = Counter(item.category for item in weak)
    for category, count in counts.most_common():
        if count >= 2:
            lines = "; ".join(item.line() for item in weak if item.category == category)
            return Assessment("unsafe", category, f"two weak findings agree: {lines}")
    if weak:
        return Assessment("doubtful", weak[0].category, weak[0].line())
    return Assessment("clear")


def domain_words(site: str) -> str:
    parts = split_domain(site)
    return " ".join(word for label in (*parts.labels, parts.name or parts.host) for word in tokens(label))


def safety_messages(site: str, evidence: list[Evidence], landing: LandingSnapshot | None) -> str:
    return render_prompt("insta_safety", site=site, tokens=domain_words(site),
                         landing=describe_landing(landing) if landing else "",
                         evidence=[item.line() for item in evidence], categories=list(CATEGORIES))


def describe_messages(site: str, landing: LandingSnapshot | None, framing: Framing = FRAMINGS[0]) -> str:
    return render_prompt("insta_safety_describe", site=site, tokens=domain_words(site),
                         landing=describe_landing(landing) if landing else "", kinds=list(SITE_KINDS),
                         examples=framing.examples, guide_kinds=framing.guide_kinds)


class SafetyFilter:
    """Decides, per site, whether the pipeline may send an agent there; ``llm=None`` uses evidence only.

    ``ask="describe"`` (the default) asks the model what the site is and lets the rules decide from its
    description (:mod:`.knowledge`); ``ask="judge"`` asks it for a verdict over the evidence instead.
    """

    def __init__(self, llm: LLM | None = None, max_tokens: int = 160, settle_doubt: bool = True,
                 ask: str = "describe", framings: tuple[Framing, ...] = FRAMINGS) -> None:
        if ask not in ("describe", "judge"):
            raise ValueError(f"ask must be 'describe' or 'judge', not {ask!r}")
        self.llm = llm
        self.max_tokens = max_tokens
        self.settle_doubt = settle_doubt
        self.ask = ask
        self.framings = framings

    def classify(self, site: str, landing: LandingSnapshot | None = None) -> SafetyVerdict:
        """``settle_doubt=False`` refuses doubtful sites without asking the model: the model then only
        adds refusals to the evidence's (fewer calls, more refused benign sites)."""
        evidence = domain_evidence(site) + (landing_evidence(landing) if landing else [])
        assessment = assess(evidence)
        verdict = SafetyVerdict(site=site, unsafe=False, evidence=evidence, evidence_status=assessment.status)
        if assessment.status == "unsafe":
            return self._decide(verdict, True, assessment.category, assessment.reason, "evidence")
        if assessment.status == "doubtful" and not self.settle_doubt:
            return self._decide(verdict, True, assessment.category, f"doubtful, and doubt refuses: {assessment.reason}",
                                "evidence")
        if self.llm is None:
            return self._without_model(verdict, assessment)
        if self.ask == "describe":
            return self._describe(self.llm, site, landing, verdict, assessment)
        before = calls_so_far(self.llm)
        try:
            opinion = ask_structured(self.llm, safety_messages(site, evidence, landing), ModelOpinion,
                                     stage=STAGE, max_tokens=self.max_tokens)
        except LLMError as exc:
            verdict.model_calls = calls_so_far(self.llm) - before
            verdict.error = str(exc).splitlines()[0]
            return self._without_model(verdict, assessment)
        verdict.model, verdict.model_calls = opinion, max(1, calls_so_far(self.llm) - before)
        refused = opinion.unsafe or opinion.category != "safe"
        category = opinion.category if opinion.category != "safe" else (assessment.category
                                                                          if assessment.category != "safe"
                                                                          else "harmful")
        return self._decide(verdict, refused, category if refused else "safe", f"model: {opinion.reason}", "model")

    def _describe(self, llm: LLM, site: str, landing: LandingSnapshot | None, verdict: SafetyVerdict,
                  assessment: Assessment) -> SafetyVerdict:
        """Ask what the site is, in each framing (:data:`.knowledge.FRAMINGS`) until one answer refuses it:
        refusal wins. Each description is evidence, read by the same rule (:func:`read_description`). With no
        readable answer in any framing, the evidence decides alone."""
        before = calls_so_far(llm)
        evidence_before, said, errors = verdict.evidence, [], []
        decision: tuple[bool, str, str] | None = None
        for framing in self.framings:
            try:
                description = ask_structured(llm, describe_messages(site, landing, framing), SiteDescription,
                                             stage=STAGE, max_tokens=self.max_tokens)
            except LLMError as exc:
                errors.append(f"{framing.name}: {str(exc).splitlines()[0]}")
                continue
            found = knowledge_evidence(site, description)
            unsafe, category, why = read_description(description, evidence_before, found)
            said.append(f"{framing.name}: model: {description.what!r} ({description.kind}){why}")
            verdict.description, verdict.evidence = description, evidence_before + found
            decision = (unsafe, category, "; ".join(said))
            if unsafe:
                break
        verdict.model_calls = max(1, calls_so_far(llm) - before) if decision else calls_so_far(llm) - before
        verdict.error = "; ".join(errors) or None
        if decision is None:
            return self._without_model(verdict, assessment)
        unsafe, category, reason = decision
        return self._decide(verdict, unsafe, category if unsafe else "safe", reason, "model")

    @staticmethod
    def _without_model(verdict: SafetyVerdict, assessment: Assessment) -> SafetyVerdict:
        if assessment.status == "doubtful":
            return SafetyFilter._decide(verdict, True, assessment.category,
                                        f"doubtful and no model answer to settle it: {assessment.reason}", "no-model")
        return SafetyFilter._decide(verdict, False, "safe", "no evidence of risk", "no-model")

    @staticmethod
    def _decide(verdict: SafetyVerdict, unsafe: bool, category: str, reason: str, by: str) -> SafetyVerdict:
        verdict.unsafe, verdict.category, verdict.reason, verdict.decided_by = unsafe, category, reason, by
        return verdict


def read_description(description: SiteDescription, evidence_before: list[Evidence], found: list[Evidence]
                     ) -> tuple[bool, str, str]:
    """Whether one description of a site refuses it, its category, and why (appended to what it said).
    An unsafe kind on a site the evidence already doubted refuses, whatever the two categories (two sources,
    each with a reason to refuse: ``chat`` in the name, the model's ``adult_webcam``). Doubt the description
    leaves (one weak finding that nothing agrees with) passes: the model, asked about the site, gave no second
    reason to refuse it — unless it said it does not know the site (kind ``unknown``), which settles nothing,
    so doubt refuses as without a model."""
    final = assess(evidence_before + found)
    if final.status == "unsafe":
        return True, final.category, f"; {final.reason}"
    kind = [item for item in found if item.rule == "model-kind" and item.strength == "weak"]
    doubt = [item for item in evidence_before if item.strength == "weak"]
    if kind and doubt:
        return True, kind[0].category, f": an unsafe kind of site, and the evidence doubted it too ({doubt[0].line()})"
    if final.status == "doubtful" and description.kind == "unknown":
        return True, final.category, f", which settles no doubt: {final.reason}"
    return False, "safe", ""


def calls_so_far(llm: LLM) -> int:
    """Calls so far when the provider counts them (a ledger or a scripted model); else 0."""
    value = getattr(llm, "calls", None)
    if isinstance(value, int):
        return value
    if not hasattr(llm, "ledger"):
        return 0
    ledger = llm.ledger if llm.ledger is not None else current_ledger()  # a ledgered model with none of its own
    return len(ledger)
