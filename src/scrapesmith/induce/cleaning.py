"""Value cleaning that becomes part of the spec, so replay does it with no model.

Two shapes of raw value recur on real detail pages:

* a value that still carries its label: ``By: Stephen King``, ``ISBN-13: 9781…`` — the node holds label
  and value together. The cleaned variant keeps what follows the label (a regex in the spec's ``post``);
* a composite: ``Adams Media / 2007 / Paperback`` — one node holds several fields. The variants keep one
  part each (by position), and the ranking picks the part that fits the field: the date part for a date,
  the part that is not a date, number or price for a publisher.

The variants are ordinary candidates: they are scored on every seed like the others, so a regex is kept
only when it gives the field's kind of value on all seeds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scrapesmith.induce.candidates import Candidate
from scrapesmith.induce.evidence import COMPOSITE_SEPARATORS, MAX_PARTS, FieldConcept, part_regex, recogniser

OTHER_KINDS = ("isbn", "price", "date", "url", "phone")
_NUMBER = re.compile(r"^\s*[\d.,]+\s*$")
OTHER_TYPE = 0.3
LIST_SEPARATOR = re.compile(r"\s*(?:;|,|&|\band\b)\s+")
COMPOSITE = 0.5


def _flat(values: Sequence[Sequence[str]]) -> list[str]:
    return [v for page in values for v in page]


def _label_prefix(value: str, labels: Sequence[str]) -> str | None:
    lowered = value.lower()
    for label in sorted(labels, key=len, reverse=True):
        if label and lowered.startswith(label) and lowered[len(label):][:1] in (" ", ":", "："):
            return label
    return None


def prefix_regex(values: Sequence[str], labels: Sequence[str]) -> str | None:
    """A regex keeping what follows the label when every value starts with one of ``labels``."""
    found = [_label_prefix(v, labels) for v in values]
    if not values or None in found:
        return None
    alternatives = "|".join(re.escape(label) for label in sorted(set(found), key=len, reverse=True))  # type: ignore[arg-type]
    return rf"(?i)^\s*(?:{alternatives})\s*[:：]?\s*(.+)$"


def composite_parts(values: Sequence[Sequence[str]]) -> tuple[str, int] | None:
    """(separator, parts) when each page's value splits into the same number of parts on one separator."""
    firsts = [page[0] for page in values if page]
    if not firsts or len(firsts) < len(values) or any(recogniser("url")(v) for v in firsts):  # type: ignore[misc]
        return None
    for separator in COMPOSITE_SEPARATORS:
        counts = {len([p for p in v.split(separator)]) for v in firsts}
        if len(counts) == 1 and 2 <= (count := counts.pop()) <= MAX_PARTS and all(
                all(p.strip() for p in v.split(separator)) for v in firsts):
            return separator, count
    return None


def cleaning_variants(candidate: Candidate, values: Sequence[Sequence[str]], concept: FieldConcept) -> list[Candidate]:
    """The cleaned versions of ``candidate`` its values call for (none when they are clean already)."""
    flat = _flat(values)
    if candidate.split is not None:
        return []
    if candidate.regex is not None:  # cleaned already; only a list of names in one text is left to split
        listed = concept.multiple and any(LIST_SEPARATOR.search(v) for v in flat)
        return [Candidate(candidate.xpath, candidate.evidence, candidate.regex, LIST_SEPARATOR.pattern)] if listed else []
    variants = []
    regex = prefix_regex(flat, concept.labels)
    if regex:
        variants.append(Candidate(candidate.xpath, candidate.evidence, regex))
    composite = composite_parts(values) if not concept.multiple else None
    if composite:
        separator, count = composite
        variants += [Candidate(candidate.xpath, candidate.evidence, part_regex(separator, i)) for i in range(count)]
    if concept.multiple and any(LIST_SEPARATOR.search(v) for v in flat):
        # "Glenn Beck and Kevin Balfe": a list of values in one text; the split variant is scored on its
        # parts (a part that is no person's name loses), with or without the label prefix cleaned away
        variants += [Candidate(candidate.xpath, candidate.evidence, r, LIST_SEPARATOR.pattern) for r in (None, regex)
                     if r is None or r]
    return variants


def is_other_type(value: str) -> bool:
    """Does ``value`` read as a well-known kind (ISBN, price, date, URL, phone, bare number)?"""
    if _NUMBER.match(value):
        return True
    return any(recogniser(kind)(value) for kind in OTHER_KINDS)  # type: ignore[misc]


def other_type(values: Sequence[str]) -> float:
    """For a field with no type of its own (a publisher): values that are all dates or numbers are not it."""
    return OTHER_TYPE if values and all(is_other_type(v) for v in values) else 1.0


def composite_whole(values: Sequence[str]) -> float:
    """A value made of parts, one of them a date or number, holds several fields: a part is better."""
    for value in values:
        for separator in COMPOSITE_SEPARATORS:
            parts = [p.strip() for p in value.split(separator)]
            if len(parts) >= 2 and all(parts) and any(is_other_type(p) for p in parts) and not all(
                    is_other_type(p) for p in parts):
                return COMPOSITE
    return 1.0
