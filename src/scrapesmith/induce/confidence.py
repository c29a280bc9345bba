"""A field's confidence: how likely the chosen candidate's values are the field's, and why not when they are not.

The ranker (:mod:`ranking`) says how likely *one* candidate is the field's, from that candidate alone. Whether
the engine is right about a field is also a matter of what it chose *against*: a runner-up that reads other
values and scores nearly as high (a tie the evidence cannot break), independent generators that agree on the
same values (a label and a class and a value kind all pointing at one node), values that do not vary across
the seed pages (a site's brand heading), that start or end with the same words on every page (a print
timestamp), that were found on only some seeds or that do not have the field's kind. Each of those is a generic
signal (:func:`signals`); a small logistic model over them (``data/confidence.json``, fitted across sites by
``scrapesmith bench swde-confidence`` and measured there leave-one-site-out) turns them into the field's
confidence, and a field under the model's threshold carries a doubt: the signal that pulled it down most, in
words. How the seed pages hold the value (:mod:`value_facts`: an element joining texts printed apart, a path
matching several elements, two values of its kind in one) and the seed checks are also *checks*: the fit keeps
those that (almost) never hold on a right value of its sites, and a kept check doubts a value whatever its
probability. No signal names a site, a vertical or an attribute.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import numpy as np

from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.ranking import CONSTANT_KINDS, RankerModel, ScoredCandidate, shared_affix
from scrapesmith.induce.value_facts import FACT_NAMES, holds_several
from scrapesmith.induce.views import FieldSpec

MODEL_PATH = Path(__file__).parent / "data" / "confidence.json"
NEAR = 0.5  # a rival reading within this share of the chosen one's score is a tie the evidence barely breaks
# signals that are facts about the field, not about the value found: never the reason a value is doubted
FIELD_FACTS = frozenset({"hard kind", "no kind", "headline field", "constant kind", "length"})
# the checks a user can see on the seed pages themselves, in the order they are given as the reason
RULES = ("same on every seed", "filled", "shared affix", "joined texts", "several of its kind", "several matches")
# the checks that may doubt a value by themselves, whatever the model's probability: a fit keeps those that
# (almost) never hold on a right value of the sites it is fitted on (``ConfidenceModel.checks``)
SINGLE_CHECKS = (*RULES, "same on every seed, any kind", "regex")
# and every two of them together ("a & b"): a pair may be one right values never show though each alone is
CHECKS = (*SINGLE_CHECKS, *(f"{a} & {b}" for i, a in enumerate(SINGLE_CHECKS) for b in SINGLE_CHECKS[i + 1:]))
# facts weighed only as checks: too rare on the development sites for a weight the model could learn
CHECK_ONLY = FACT_NAMES
FACTOR_SIGNALS = ("type", "variation", "outside", "closeness", "headline", "short", "cardinality", "templated")


def field_values(scored: ScoredCandidate, concept: FieldConcept) -> tuple[tuple[str, ...], ...]:
    """What a candidate gives as the field on each seed page: every value of a list field, else the first."""
    several = concept.multiple or scored.candidate.several
    return tuple(tuple(page if several else page[:1]) for page in scored.values)


def signals(ranked: Sequence[ScoredCandidate], concept: FieldConcept) -> dict[str, float]:
    """The generic signals of the chosen candidate (``ranked[0]``) among the field's trusted candidates."""
    best = ranked[0]
    mine = field_values(best, concept)
    filled = [page for page in mine if page]
    score = max(best.score, 1e-9)
    rivals = [s for s in ranked[1:] if field_values(s, concept) != mine]
    agreeing = [s for s in ranked[1:] if field_values(s, concept) == mine]
    rival = rivals[0].score if rivals else 0.0
    flat = [v for page in filled for v in page]
    firsts = [page[0] for page in filled]
    several = concept.multiple or best.candidate.several
    found: dict[str, float] = {
        "ranker": best.learned if best.learned is not None else 0.5,
        "score": math.log(score),
        "margin": min(math.log(score / max(rival, 1e-9)), 5.0),
        "rivals near": math.log1p(sum(s.score >= NEAR * score for s in rivals)),
        "agreeing": math.log1p(min(len(agreeing), 8)),
        "agreeing evidence": float(len({s.candidate.evidence for s in agreeing} - {best.candidate.evidence})),
        "same on every seed": float(len(mine) > 1 and len(filled) == len(mine) and len(set(mine)) == 1),
        "constant kind": float(concept.kind in CONSTANT_KINDS),
        "filled": len(filled) / max(1, len(mine)),
        "shared affix": float(not several and len(filled) > 1 and shared_affix(firsts) is not None),
        "per page": math.log(max(1.0, len(flat) / max(1, len(filled)))),
        "length": math.log1p(sum(map(len, flat)) / max(1, len(flat))),
        "prior": math.log(max(best.candidate.prior, 1e-6)),
        "hard kind": float(concept.hard_type),
        "no kind": float(concept.kind is None),
        "headline field": float(concept.headline),
        "regex": float(best.candidate.regex is not None),
    }
    for name in FACTOR_SIGNALS:
        found[f"f:{name}"] = math.log(max(best.factors.get(name, 1.0), 1e-6))
    facts = best.facts.numbers
    found.update({name: facts.get(name, 0.0) for name in FACT_NAMES})
    return found


def _reason(name: str, ranked: Sequence[ScoredCandidate], concept: FieldConcept, found: dict[str, float]) -> str:
    """A signal that pulled the confidence down, in the words a user reads next to the field."""
    best = ranked[0]
    mine = field_values(best, concept)
    filled = [page for page in mine if page]
    if " & " in name:
        return "; ".join(dict.fromkeys(_reason(part, ranked, concept, found) for part in name.split(" & ")))
    if name in ("same on every seed", "same on every seed, any kind"):
        return "same text on every seed page"
    if name == "filled":
        return f"found on {len(filled)} of {len(mine)} seed pages"
    if name == "shared affix":
        return shared_affix([page[0] for page in filled]) or "same words around every seed's value"
    if name == "joined texts":
        texts = best.facts.joined
        shown = " + ".join(f"'{t[:30]}'" for t in texts[:2])
        return f"joins {len(texts)} texts the page prints apart ({shown})" if texts else "joins texts printed apart"
    if name == "several of its kind":
        shown = next((page[0] for page in filled if holds_several(page[0], concept.kind)), "")
        return f"one value holds several of its kind ('{shown[:40]}')"
    if name == "several matches":
        return f"its path matches {round(math.exp(found[name]), 1)} elements a page; the first is taken"
    if name in ("margin", "rivals near"):
        rival = next((s for s in ranked[1:] if field_values(s, concept) != mine), None)
        shown = next((v for page in field_values(rival, concept) for v in page), "") if rival else ""
        if rival is None:
            return "no rival reading to weigh it against"
        return f"another reading scores nearly as high ('{shown[:40]}')"
    if name in ("agreeing", "agreeing evidence"):
        return f"only one kind of evidence ({best.candidate.evidence}) gives these values"
    if name == "ranker":
        return f"the ranker gives it {found['ranker']:.2f}"
    if name == "f:type":
        return f"not every value reads as a {concept.kind}" if concept.kind else "values of another kind"
    if name == "f:outside":
        return "outside the page's own record"
    if name == "f:closeness":
        return "far from the page's headline"
    if name == "f:variation":
        return "the values barely vary across the seed pages"
    if name in ("score", "prior"):
        return f"weak evidence ({best.candidate.evidence}, score {best.score:.2f})"
    if name in ("per page", "f:cardinality"):
        return f"{round(math.exp(found['per page']), 1)} values per page where one is expected"
    if name == "regex":
        return "the value is cut out of a longer text"
    if name == "f:short":
        return "values longer than the field's usually are"
    if name == "f:templated":
        return "shares the template's words on every seed page"
    if name == "f:headline":
        return "does not read as the page's title"
    return f"{name.removeprefix('f:')} is unusual for a right value"


class ConfidenceModel(RankerModel):
    """The fitted model: a logistic regression over :func:`signals` (``kind: linear``) with its threshold and the
    checks that doubt a value by themselves."""

    @property
    def checks(self) -> list[str]:
        """The checks (:data:`CHECKS`) that doubt a value whatever its probability."""
        return list(self.data.get("checks", []))

    def flags(self, found: dict[str, float]) -> bool:
        """Is a value with the signals ``found`` doubted: a check holds, or its probability is under the threshold?"""
        return any(check_holds(n, found) for n in self.checks) or self.probability(found) < self.threshold

    def contributions(self, features: dict[str, float]) -> dict[str, float]:
        """Each signal's share of the log-odds (weight times standardised value): the most negative is the reason."""
        x = np.array([features.get(n, 0.0) for n in self.features], dtype=float)
        parts = (x - self._array("mean")) / self._array("scale") * self._array("weights")
        return dict(zip(self.features, (float(p) for p in parts), strict=True))


@lru_cache(maxsize=1)
def shipped_model() -> ConfidenceModel | None:
    if not MODEL_PATH.is_file():
        return None
    return ConfidenceModel(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


_MODEL: ContextVar[ConfidenceModel | None | str] = ContextVar("confidence", default="shipped")


@contextmanager
def use_confidence(model: ConfidenceModel | None) -> Iterator[None]:
    """Judge confidence with ``model`` inside the block (one fitted without the site being scored)."""
    token = _MODEL.set(model)
    try:
        yield
    finally:
        _MODEL.reset(token)


def current_model() -> ConfidenceModel | None:
    chosen = _MODEL.get()
    return shipped_model() if chosen == "shipped" else chosen  # type: ignore[return-value]


def assess(ranked: Sequence[ScoredCandidate], concept: FieldConcept) -> tuple[float | None, str | None]:
    """The chosen candidate's (``ranked[0]``) confidence and, under the model's threshold, why it is low.
    With no model, the ranker's probability and the rules it had (``ranking.judged``)."""
    from scrapesmith.induce.ranking import judged

    model = current_model()
    if model is None or not ranked:
        return judged(ranked[0], concept) if ranked else (None, None)
    found = signals(ranked, concept)
    probability = round(model.probability(found), 3)
    check = next((name for name in model.checks if check_holds(name, found)), None)
    if check is not None:  # a fact right values (almost) never show on the sites the model was fitted on
        return probability, _reason(check, ranked, concept, found)
    if probability >= model.threshold:
        return probability, None
    rule = next((name for name in RULES if check_holds(name, found)), None)
    if rule is not None:  # a reason a user can check on the seeds themselves comes first
        return probability, _reason(rule, ranked, concept, found)
    parts = model.contributions(found)
    worst = min((name for name in parts if name not in FIELD_FACTS), key=lambda name: parts[name])
    return probability, _reason(worst, ranked, concept, found)


def check_holds(name: str, found: dict[str, float]) -> bool:
    """Does the check ``name`` (one of :data:`CHECKS`) hold on a value's signals ``found``?"""
    if " & " in name:
        return all(check_holds(part, found) for part in name.split(" & "))
    if name == "same on every seed":
        return found.get(name, 0.0) > 0 and not found.get("constant kind", 0.0)
    if name == "same on every seed, any kind":
        return found.get("same on every seed", 0.0) > 0
    return found.get(name, 1.0) < 1 if name == "filled" else found.get(name, 0.0) > 0


def assessed(field: FieldSpec, ranked: Sequence[ScoredCandidate], concept: FieldConcept) -> FieldSpec:
    """``field`` (made from ``ranked[0]``) with the confidence and doubt :func:`assess` gives it."""
    if not ranked or not field.actions:
        return field
    confidence, doubt = assess(ranked, concept)
    return field.model_copy(update={"confidence": confidence, "doubt": doubt})
