"""What a field *is*, read from its name and instruction: its value kind, the labels pages print for it.

The kind (``kinds.py``) comes from the ordinary words of the field's name, else of its description; the
labels are the field's own words (``publication_date`` is labelled "Publication Date", "Publication" or
"Date"), the phrase the instruction asks for ("the *online price* of the book"), and the kind's usual
labels ("Tel" for a phone). Nothing here names a site or a benchmark's attributes: a field nobody
foresaw still gets its own words as labels, and the pages do the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from scrapesmith.induce.kinds import (
    BY_NAME,
    ValueKind,
    instruction_label,
    kind_asked,
    recogniser,
    role_labels,
)

COMPOSITE_SEPARATORS = "/|·•;"
MAX_PARTS = 5
_HEADLINE_TRIGGERS = ("title", "name", "model", "headline", "heading")
_STOP_WORDS = frozenset({"the", "a", "an", "of", "and", "or", "for", "to", "in", "on", "at", "by", "that", "is"})


def composite_split(value: str) -> tuple[str, list[str]] | None:
    """(separator, parts) of a value made of several fields ("Adams Media / 2007 / Paperback"), if it is one."""
    for separator in COMPOSITE_SEPARATORS:
        parts = [p.strip() for p in value.split(separator)]
        spaced = f" {separator} " in value or (separator == ";" and "; " in value)
        if 2 <= len(parts) <= MAX_PARTS and all(parts) and spaced:
            return separator, parts
    return None


def part_regex(separator: str, index: int) -> str:
    """Group 1 is the ``index``-th part (from 0) of a value split on ``separator``."""
    sep = re.escape(separator)
    return rf"^(?:[^{sep}]*{sep}){{{index}}}\s*([^{sep}]*?)\s*(?:{sep}.*)?$"


@dataclass(frozen=True)
class FieldConcept:
    """Everything the inducer knows about a field before looking at a page."""

    name: str
    labels: tuple[str, ...]
    kind: str | None = None
    multiple: bool = False
    headline: bool = False
    class_words: tuple[str, ...] = field(default_factory=tuple)
    max_length: int = 200
    avoid: str | None = None
    words: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()
    others: tuple[str, ...] = ()  # the other fields asked for beside this one (a label goes to the field it means most)

    def avoided(self, text: str) -> bool:
        """Is this a known distractor for the field (a list price next to a sale price …)?"""
        return bool(self.avoid and re.search(self.avoid, text, re.IGNORECASE))

    @property
    def hard_type(self) -> bool:
        """Is the kind a hard check (every value must have it), not a hint (person names vary)?"""
        kind = BY_NAME.get(self.kind or "")
        return bool(kind and kind.hard)

    @property
    def finds_values(self) -> bool:
        """Is the kind's recogniser specific enough to propose values by itself?"""
        kind = BY_NAME.get(self.kind or "")
        return bool(kind and kind.finds)

    def matches_type(self, value: str) -> bool | None:
        check: Callable[[str], bool] | None = recogniser(self.kind)
        return None if check is None else check(value)


def _own_labels(name: str) -> tuple[str, ...]:
    """The field's name as labels: the whole ("publication date") and each content word alone."""
    words = [w for w in re.findall(r"[a-z0-9]+", name.lower().replace("_", " "))]
    whole = " ".join(words)
    singles = [w for w in words if len(words) > 1 and w not in _STOP_WORDS and not w.isdigit() and len(w) > 2]
    return tuple(dict.fromkeys([whole, *singles]))


# words pages use for the same field, as a thesaurus groups them: a field named by one is labelled by any
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("manufacturer", "brand", "brand name", "make", "maker", "mfr"),
    ("company", "employer", "company name", "organisation", "organization", "firm", "business"),
    ("location", "city", "place", "locale"),
    ("type", "kind", "category", "class"),
    ("website", "web site", "homepage", "url", "web address"),
    ("phone", "telephone", "tel", "phone number"),
    ("salary", "pay", "compensation", "wage"),
    ("genre", "category"),
    ("height", "ht"),
    ("weight", "wt"),
)


def _synonyms(labels: list[str]) -> list[str]:
    found = []
    for group in SYNONYMS:
        if any(label in group for label in labels):
            found += [word for word in group if word not in labels and word not in found]
    return found


def concepts_for(requests) -> list[FieldConcept]:
    """The concept of each requested field (objects with ``name`` and ``instruction``), each knowing the names
    of the others asked for beside it."""
    names = [request.name for request in requests]
    return [replace(concept_for(request.name, request.instruction),
                    others=tuple(n for n in names if n != request.name)) for request in requests]


def concept_for(name: str, instruction: str = "") -> FieldConcept:
    """The field's concept: its kind, its labels (own words, the instruction's phrase, the kind's), hints."""
    kind: ValueKind | None = kind_asked(name, instruction)
    name_words = set(re.findall(r"[a-z0-9]+", name.lower().replace("_", " ")))
    headline = bool(name_words & set(_HEADLINE_TRIGGERS)) and (kind is None or kind.name in (
        "organisation", "person", "location", "class", "category"))
    if kind is None and not headline:  # "the product name of the camera" for a field called "product"
        headline = bool(set(re.findall(r"[a-z]+", instruction.lower())) & set(_HEADLINE_TRIGGERS)) \
            and "of the" in instruction.lower()
    labels = list(_own_labels(name))
    labels += _synonyms(labels)
    phrase = instruction_label(instruction)
    if phrase and phrase not in labels:
        labels.insert(0, phrase)
    if kind is not None:
        labels += [label for label in kind.labels if label not in labels]
        labels += [label for label in role_labels(name_words) if label not in labels]
    words = tuple(w for w in name_words if not w.isdigit())
    joined = "".join(w for w in re.findall(r"[a-z]+", name.lower()))
    class_words = tuple(dict.fromkeys([*words, joined, *(("title", "name") if headline else ())]))
    asked = tuple(sorted(set(re.findall(r"[a-z0-9]+", f"{name} {instruction}".lower().replace("_", " ")))))
    if headline:
        return FieldConcept(name, tuple(labels), kind.name if kind else None, False, True, class_words, 300,
                            words=words, asked=asked)
    return FieldConcept(name, tuple(labels), kind.name if kind else None, bool(kind and kind.multiple), False,
                        class_words, kind.max_length if kind else 200, kind.avoid if kind else None, words, asked)
