"""The learned ranker: which of a field's candidates holds its values, learned across sites.

The generators (labels, key/value pairs, headings, joined and linked text, value kinds, regions) propose
candidates and :func:`heuristic.score_candidate` weighs each by evidence; every weight is kept apart in
``ScoredCandidate.factors``. This module describes each candidate by those weights plus generic features —
how well the text that labels or holds it *means* the field's name (a sentence-embedding model,
:mod:`scrapesmith.llm.embed`, not word lists), how much its values vary across the seed pages, how often
its text repeats on the page, where it sits (heading level, position, distance to the headline) — and a
small model trained across sites turns them into the probability that the candidate's values are the
field's. The candidates are ordered by it, and the chosen one's probability is the field's confidence.

The model is a file (``data/ranker.json``: gradient-boosted trees or a logistic regression, written by
``scrapesmith bench swde-ranker``) evaluated here in numpy, so replaying and inducing need neither
scikit-learn nor the training data. No feature names a site, a vertical or an attribute.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np
from lxml import etree

from scrapesmith.induce.candidates import PRIORS, FieldCandidate, class_words
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.value_facts import ValueFacts, facts_for
from scrapesmith.llm import embed_texts, embeddings_available


class ScoredCandidate(Protocol):
    """What the ranker reads of a scored candidate (``heuristic.ScoredCandidate``, which imports this module)."""

    candidate: FieldCandidate
    values: list[list[str]]
    score: float
    support: int
    factors: dict[str, float]
    learned: float | None
    facts: ValueFacts

MODEL_PATH = Path(__file__).parent / "data" / "ranker.json"
FACTORS = ("prior", "coverage", "type", "cardinality", "short", "variation", "headline", "avoided", "scan",
           "labelled", "furniture", "templated", "roles", "cleaned", "naming", "cut short", "closeness",
           "outside", "distractor")
EVIDENCE = tuple(PRIORS)
_LITERAL = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"")
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
MAX_LABEL = 60
CONSIDERED = 30  # the hand-weighted ranking's head the model reorders; below it the evidence is all but gone


@dataclass
class PageFacts:
    """What every candidate of one seed page asks about the page: element order and text repetition."""

    order: dict[etree._Element, int]
    texts: Counter[str]

    @classmethod
    def of(cls, root: etree._Element) -> PageFacts:
        order = {element: index for index, element in enumerate(root.iter())}
        texts: Counter[str] = Counter()
        for element in root.iter(etree.Element):
            for text in (element.text, element.tail):
                plain = normalize_space(text or "")
                if plain:
                    texts[plain.lower()] += 1
        return cls(order, texts)


def field_phrases(concept: FieldConcept) -> list[str]:
    """The field in words: its name ("publication date") and its first label, which is the phrase its
    instruction asks for when it asks for one ("the date that post the job")."""
    phrases = [" ".join(re.findall(r"[a-z0-9]+", concept.name.lower().replace("_", " ")))]
    if concept.labels and concept.labels[0] not in phrases:
        phrases.append(concept.labels[0])
    return [p for p in phrases if p]


def _meaning(field_rows, texts: Sequence[str]) -> float:
    """Best cosine between the field's phrases and any of ``texts`` (0.0 when there is no text)."""
    texts = [t for t in texts if t]
    if not texts or field_rows is None:
        return 0.0
    return float((embed_texts(texts) @ field_rows.T).max())


def _label_before(node: etree._Element) -> str:
    for element in (node, node.getparent()):
        previous = element.getprevious() if element is not None else None
        while previous is not None and not isinstance(previous.tag, str):
            previous = previous.getprevious()
        if previous is not None:
            text = normalize_space(previous.text_content())
            if text:
                return text[:MAX_LABEL]
        if element is not None and normalize_space(element.text or "") and element is not node:
            return normalize_space(element.text or "")[:MAX_LABEL]
    return ""


def _attribute_words(node: etree._Element) -> str:
    words: list[str] = []
    for element in (node, node.getparent()):
        if element is None:
            continue
        for attribute in ("class", "id", "itemprop"):
            words += sorted(class_words(element.get(attribute) or ""))
    return " ".join(dict.fromkeys(w for w in words if len(w) > 2))


class FieldFeatures:
    """Features of one field's candidates on its seed pages (page facts and embeddings shared by all)."""

    def __init__(self, concept: FieldConcept, seeds: Sequence[etree._Element]) -> None:
        self.concept = concept
        self.seeds = list(seeds)
        self.pages = [PageFacts.of(root) for root in seeds]
        self.meaning = embeddings_available()
        self.field_rows = embed_texts(field_phrases(concept)) if self.meaning else None

    def of(self, scored: ScoredCandidate, best_score: float, rank: int) -> dict[str, float]:
        features: dict[str, float] = {f"f:{name}": math.log(max(scored.factors.get(name, 1.0), 1e-6))
                                      for name in FACTORS}
        features.update({f"e:{name}": float(scored.candidate.evidence == name) for name in EVIDENCE})
        features["score"] = math.log(max(scored.score, 1e-9))
        features["score vs best"] = math.log(max(scored.score, 1e-9) / max(best_score, 1e-9))
        features["heuristic rank"] = float(min(rank, 50))
        features["support"] = scored.support / max(1, len(self.seeds))
        features.update(self._values(scored))
        features.update(self._places(scored))
        features["regex"] = float(scored.candidate.regex is not None)
        features["split"] = float(scored.candidate.split is not None)
        features["positions"] = float(len(re.findall(r"\[\d+\]", scored.candidate.xpath)))
        features["multiple"] = float(self.concept.multiple)
        features["headline field"] = float(self.concept.headline)
        features["hard kind"] = float(self.concept.hard_type)
        features["no kind"] = float(self.concept.kind is None)
        return features

    def _values(self, scored: ScoredCandidate) -> dict[str, float]:
        pages = scored.values
        flat = [v for page in pages for v in page]
        filled = [page for page in pages if page]
        distinct = len({tuple(page) for page in filled})
        lengths = [len(v) for v in flat] or [0]
        repeats = [facts.texts.get(normalize_space(page[0]).lower(), 0)
                   for page, facts in zip(pages, self.pages, strict=False) if page]
        return {
            "filled": len(filled) / max(1, len(pages)),
            "same on every seed": float(len(filled) > 1 and distinct == 1),
            "distinct share": distinct / max(1, len(filled)),
            "per page": len(flat) / max(1, len(filled)),
            "length": math.log1p(sum(lengths) / len(lengths)),
            "words": math.log1p(sum(len(v.split()) for v in flat) / max(1, len(flat))),
            "digits": sum(c.isdigit() for v in flat for c in v) / max(1, sum(lengths)),
            "repeats on page": math.log1p(sum(repeats) / len(repeats)) if repeats else 0.0,
        }

    def texts(self, scored: ScoredCandidate) -> dict[str, list[str]]:
        """The texts whose meaning is weighed: what is printed before the value (its label), the strings its
        path is anchored on, and the class and id words of the value's element and its parent."""
        befores, attributes = [], []
        for root in self.seeds:
            nodes = value_nodes(root, scored.candidate.xpath)
            if nodes:
                befores.append(_label_before(nodes[0]))
                attributes.append(_attribute_words(nodes[0]))
        literals = [normalize_space(a or b) for a, b in _LITERAL.findall(scored.candidate.xpath)]
        return {"label before": befores, "path words": [t for t in literals if re.search(r"[A-Za-z]{2}", t)],
                "class words": attributes}

    def _places(self, scored: ScoredCandidate) -> dict[str, float]:
        levels, positions = [], []
        for root, facts in zip(self.seeds, self.pages, strict=True):
            nodes = value_nodes(root, scored.candidate.xpath)
            if not nodes:
                continue
            node = nodes[0]
            levels.append(next((_HEADINGS[a.tag] for a in (node, *node.iterancestors())
                                if isinstance(a.tag, str) and a.tag in _HEADINGS), 0))
            positions.append(facts.order.get(node, 0) / max(1, len(facts.order)))
        features = {
            "heading level": (sum(levels) / len(levels)) if levels else 0.0,
            "in heading": float(bool(levels) and all(levels)),
            "position": (sum(positions) / len(positions)) if positions else 1.0,
        }
        for name, texts in self.texts(scored).items():
            features[f"meaning of {name}"] = _meaning(self.field_rows, texts) if self.meaning else 0.0
        return features


@dataclass
class RankerModel:
    """A trained ranker: gradient-boosted trees (``kind: trees``) or a logistic regression (``linear``)
    over named features, as ``scrapesmith bench swde-ranker`` writes it."""

    data: dict

    @property
    def features(self) -> list[str]:
        return self.data["features"]

    def probability(self, features: dict[str, float]) -> float:
        return float(self.probabilities([features])[0])

    def probabilities(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        """The probability that each candidate (its features by name) holds its field's values, in numpy."""
        x = np.array([[row.get(name, 0.0) for name in self.features] for row in rows], dtype=float)
        x = x.reshape(len(rows), len(self.features))
        if self.data["kind"] == "linear":
            raw = self.data["bias"] + ((x - self._array("mean")) / self._array("scale")) @ self._array("weights")
        else:
            raw = self.data["base"] + self.data["rate"] * sum(_tree_values(tree, x) for tree in self.data["trees"])
        return 1.0 / (1.0 + np.exp(-np.clip(raw, -30.0, 30.0)))

    def _array(self, key: str) -> np.ndarray:
        cached = self.__dict__.setdefault("_arrays", {})
        if key not in cached:
            cached[key] = np.asarray(self.data[key], dtype=float)
        return cached[key]

    @property
    def orders(self) -> bool:
        """Does the model order the candidates, or only weigh the hand-weighted choice (its confidence)?"""
        return bool(self.data.get("orders", True))

    @property
    def margin(self) -> float:
        """How much likelier than the hand-weighted first another candidate must be to be chosen instead."""
        return float(self.data.get("margin", 0.0))

    @property
    def threshold(self) -> float:
        """Below this probability a field's value is flagged as unsure (chosen when the model was fitted)."""
        return float(self.data.get("threshold", 0.5))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.data, separators=(",", ":")) + "\n", encoding="utf-8")


def _tree_values(tree: dict, x: np.ndarray) -> np.ndarray:
    """One regression tree (scikit-learn's arrays: feature, threshold, left, right, value) on every row of x."""
    feature, threshold = np.asarray(tree["feature"]), np.asarray(tree["threshold"])
    left, right, value = np.asarray(tree["left"]), np.asarray(tree["right"]), np.asarray(tree["value"])
    nodes = np.zeros(len(x), dtype=int)
    rows = np.arange(len(x))
    while True:
        inner = left[nodes] >= 0
        if not inner.any():
            return value[nodes]
        at = nodes[inner]
        goes_left = x[rows[inner], feature[at]] <= threshold[at]
        nodes[inner] = np.where(goes_left, left[at], right[at])


@lru_cache(maxsize=1)
def shipped_ranker() -> RankerModel | None:
    """The ranker shipped with the package (``data/ranker.json``), or None when there is none."""
    if not MODEL_PATH.is_file():
        return None
    return RankerModel(json.loads(MODEL_PATH.read_text(encoding="utf-8")))


_RANKER: ContextVar[RankerModel | None | str] = ContextVar("ranker", default="shipped")


@contextmanager
def use_ranker(model: RankerModel | None) -> Iterator[None]:
    """Rank with ``model`` (None: the hand-weighted score alone) inside the block, e.g. a model fitted
    without the site being scored (``bench swde --loso``)."""
    token = _RANKER.set(model)
    try:
        yield
    finally:
        _RANKER.reset(token)


def current_ranker() -> RankerModel | None:
    chosen = _RANKER.get()
    return shipped_ranker() if chosen == "shipped" else chosen  # type: ignore[return-value]


def described(ranked: Sequence[ScoredCandidate], concept: FieldConcept,
              seeds: Sequence[etree._Element]) -> list[dict[str, float]]:
    """The features of the first :data:`CONSIDERED` candidates of ``ranked`` (hand-weighted order)."""
    if not ranked:
        return []
    features = FieldFeatures(concept, seeds)
    head = ranked[:CONSIDERED]
    if features.meaning:  # one batch for every text of every candidate: the encoder pads less, calls once
        embed_texts(sorted({t for s in head for texts in features.texts(s).values() for t in texts if t}))
    best = max(s.score for s in ranked)
    return [features.of(scored, best, rank) for rank, scored in enumerate(head)]


def learned_order(ranked: list[ScoredCandidate], concept: FieldConcept, seeds: Sequence[etree._Element],
                  model: RankerModel | None = None, reorder: bool = True) -> list[ScoredCandidate]:
    """``ranked`` (best hand-weighted first) with the model's probability in each candidate's ``learned``
    (only the first :data:`CONSIDERED`), reordered by it when the model was found to order better than the
    hand weights on the sites it was fitted on (``orders``) and its likeliest beats the hand-weighted first
    by more than the model's ``margin``; unchanged when there is no model. The first also carries what the
    seed pages show about its node (:func:`value_facts.facts_for`), which its field's confidence weighs.
    ``reorder`` False: the first stays first whatever the model says (a user pointed at its node), weighed as
    when ``orders`` is off."""
    ordered = _learned_order(ranked, concept, seeds, model, reorder)
    if ordered:
        chosen = ordered[0]
        chosen.facts = facts_for(chosen.candidate, chosen.values, concept, seeds)
    return ordered


def _learned_order(ranked: list[ScoredCandidate], concept: FieldConcept, seeds: Sequence[etree._Element],
                   model: RankerModel | None = None, reorder: bool = True) -> list[ScoredCandidate]:
    model = model or current_ranker()
    if model is None or not ranked:
        return ranked
    if not model.orders or not reorder:  # the model weighs the hand-weighted choice only: describe that one, not the head
        ranked[0].learned = float(model.probabilities(described(ranked[:1], concept, seeds))[0])
        return ranked
    head, rest = ranked[:CONSIDERED], ranked[CONSIDERED:]
    for scored, probability in zip(head, model.probabilities(described(head, concept, seeds)), strict=True):
        scored.learned = float(probability)
    order = {id(s): i for i, s in enumerate(head)}
    reordered = sorted(head, key=lambda s: (-round(s.learned or 0.0, 6), order[id(s)]))
    if (reordered[0].learned or 0.0) - (head[0].learned or 0.0) <= model.margin:
        return ranked  # the model is not sure enough to overrule the evidence's first
    return reordered + rest


# kinds whose value may well be the same on every record of a site ("Type: Private" on every seed page)
CONSTANT_KINDS = frozenset({"class", "category"})


SHARED_START_WORDS = 3  # "Online Jul 08, 2010 05:17:38": a print timestamp's words, not the record's
SHARED_END_WORDS = 2  # "2010 Audi S5 Specs and Features": the template's words after the record's


def shared_affix(values: Sequence[str]) -> str | None:
    """Why values that differ from seed to seed still read as the template's: every one starts with the same
    three words or ends with the same two (the record's own words rarely agree so far across records)."""
    words = [v.split() for v in values]
    if len({tuple(w) for w in words}) < 2:
        return None
    shortest = min(len(w) for w in words)
    start = next((n for n in range(shortest) if len({tuple(w[: n + 1]) for w in words}) > 1), shortest)
    end = next((n for n in range(shortest) if len({tuple(w[len(w) - n - 1:]) for w in words}) > 1), shortest)
    if start >= SHARED_START_WORDS:
        return f"starts with the same words on every seed page ('{' '.join(words[0][:start])}')"
    if end >= SHARED_END_WORDS:
        return f"ends with the same words on every seed page ('{' '.join(words[0][len(words[0]) - end:])}')"
    return None


def judged(best: ScoredCandidate, concept: FieldConcept) -> tuple[float | None, str | None]:
    """The chosen candidate's confidence and, when it is unsure, why. Text the same on every seed page is
    the template's (a site's brand heading, a print timestamp's label) unless the field's kind may be one
    value on every record; a value found on only some seeds, or one the ranker gives little chance, is unsure
    too. The reason is what a user reads next to the field; ``--strict`` leaves such fields empty."""
    several = concept.multiple or best.candidate.several
    pages = [page if several else page[:1] for page in best.values]  # what the field will give: its first
    filled = [page for page in pages if page]
    confidence = round(best.learned, 3) if best.learned is not None else None
    model = current_ranker()
    if len(pages) > 1 and len(filled) == len(pages) and len({tuple(p) for p in pages}) == 1 \
            and concept.kind not in CONSTANT_KINDS:
        return confidence, "same text on every seed page"
    if len(filled) < len(pages):
        return confidence, f"found on {len(filled)} of {len(pages)} seed pages"
    affix = shared_affix([page[0] for page in filled]) if not several and len(filled) > 1 else None
    if affix:
        return confidence, affix
    if confidence is not None and model is not None and confidence < model.threshold:
        return confidence, f"the ranker gives it {confidence:.2f} (under {model.threshold:.2f})"
    return confidence, None
