"""Labels that *mean* the field in words nobody listed: "MPG" for a fuel economy, "Type of School" for a type.

:mod:`labels` finds a label that spells the field's words (or a qualified form of them). A page may label the
same fact in other words; what it prints as a label is then found by meaning: the short label-like texts that
every seed page prints (a template's labels are the same on every record, its values are not) are compared
with the field's name by the shipped sentence-embedding model (:mod:`scrapesmith.llm.embed`), and the few
that mean it most, above :data:`MEANT_MIN`, head values the way a spelled label does (its tail, its next
sibling, the next cell, the first item of the list it heads). Their candidates carry evidence ``meant`` and
the cosine as a weight, so a spelled label wins where there is one. Nothing here lists words: without the
embedding model there are no such candidates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, outer_box, visible_elements
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept, concept_for
from scrapesmith.induce.kinds import is_plain_number
from scrapesmith.induce.labels import LABEL_STRIP, MAX_LABEL_CHARS, after_label, is_link, label_evidence
from scrapesmith.llm import embed_texts, embeddings_available

MEANT_MIN = 0.4  # cosine of all-MiniLM-L6-v2 between a label and the field's name (chosen on the read half)
MEANT_KEPT = 2  # the labels that mean the field most, at most this many
MAX_LABEL_WORDS = 6


def _label_elements(root: etree._Element) -> Iterator[tuple[etree._Element, str]]:
    """Elements that read as a label (the test :func:`labels.label_candidates` applies before it asks whether
    the text names the field): own text, at most two children, not a link, short, a few words, a letter."""
    for element in visible_elements(root):
        own = normalize_space(element.text or "")
        if not own or len(element) > 2 or is_link(element):
            continue
        whole = normalize_space(element.text_content())
        plain = whole.strip(LABEL_STRIP)
        if (not plain or len(whole) > MAX_LABEL_CHARS or len(plain.split()) > MAX_LABEL_WORDS
                or not re.search(r"[^\W\d_]", plain) or is_plain_number(plain)):
            continue
        yield element, whole


def _headed_value(element: etree._Element) -> str:
    """The text a label heads: its tail, else its next sibling's (what :func:`labels.after_label` reads first)."""
    tail = normalize_space(element.tail or "").strip(LABEL_STRIP)
    if tail:
        return tail
    following = element.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    return normalize_space(following.text_content()) if following is not None else ""


_TEMPLATE: dict[tuple[int, ...], tuple[tuple[etree._Element, ...], list[str]]] = {}  # the roots kept: ids stay theirs


def template_labels(seeds: Sequence[etree._Element]) -> list[str]:
    """The label-like texts every seed page prints (a template's own words) that head a value which differs
    from seed to seed (a record's data): with two or more seeds only."""
    if len(seeds) < 2:
        return []
    key = tuple(id(root) for root in seeds)
    if key not in _TEMPLATE or any(a is not b for a, b in zip(_TEMPLATE[key][0], seeds, strict=True)):
        if len(_TEMPLATE) > 8:
            _TEMPLATE.clear()
        heads: list[dict[str, str]] = []
        for root in seeds:
            here: dict[str, str] = {}
            for element, whole in _label_elements(root):
                here.setdefault(whole, "")
                if not here[whole]:  # the span "MPG:" heads nothing, its box <div>MPG: <a/></div> the value
                    parent = element.getparent()
                    boxes = [element] + ([parent] if parent is not None
                                         and normalize_space(parent.text_content()) == whole else [])
                    here[whole] = next((v for v in map(_headed_value, boxes) if v), "")
            heads.append(here)
        shared = set.intersection(*(set(h) for h in heads))
        _TEMPLATE[key] = (tuple(seeds), sorted(t for t in shared if len({h[t] for h in heads if h[t]}) > 1))
    return _TEMPLATE[key][1]


def meant_labels(seeds: Sequence[etree._Element], concept: FieldConcept,
                 phrases: Sequence[str]) -> dict[str, float]:
    """The template labels that mean the field (``phrases``: its name in words) most, with their cosine; those
    that spell it are left to :mod:`labels`, and those that spell, or mean more, another field asked for beside
    it (``concept.others``) are that field's."""
    if concept.headline or not phrases or not embeddings_available():
        return {}
    rivals = [concept_for(name) for name in concept.others]
    texts = [t for t in template_labels(seeds) if label_evidence(t, concept) is None
             and not any(label_evidence(t, rival) is not None for rival in rivals)]  # another field's own label
    if not texts:
        return {}
    vectors = embed_texts([t.strip(LABEL_STRIP) or t for t in texts])
    cosines = (vectors @ embed_texts(list(phrases)).T).max(axis=1)
    if rivals:  # a label means the field it means most: "Publisher" is the publisher's, not the edition's
        rival_phrases = [" ".join(re.findall(r"[a-z0-9]+", name.lower().replace("_", " "))) for name in concept.others]
        rival_cosines = (vectors @ embed_texts([p for p in rival_phrases if p] or [""]).T).max(axis=1)
        cosines = cosines * (cosines > rival_cosines)
    best = sorted(zip(cosines.tolist(), texts, strict=True), reverse=True)[:MEANT_KEPT]
    return {text: round(cosine, 4) for cosine, text in best if cosine >= MEANT_MIN}


def meant_candidates(root: etree._Element, concept: FieldConcept, meant: dict[str, float]) -> list[FieldCandidate]:
    """The values the ``meant`` labels head on one page, found from each label as a spelled label's are."""
    if not meant:
        return []
    found: list[FieldCandidate] = []
    for element, whole in _label_elements(root):
        if whole in meant:
            found += [replace(c, strength=meant[whole]) for box in dict.fromkeys((element, outer_box(element)))
                      for c in after_label(box, whole, "meant", concept)]
    return found
