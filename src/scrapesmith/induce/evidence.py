"""What a field *is*, read from its name and instruction: label synonyms, value-type recognisers, hints.

These are general facts about detail pages (a publisher is labelled "Publisher" or "Imprint", an ISBN-13
is 13 digits starting 978/979, a phone number has ten digits), not rules for one site. The heuristic
inducer uses them to find value nodes; the LLM path uses the candidates they produce.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

_MONTHS = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_PATTERNS: dict[str, re.Pattern[str]] = {
    "date": re.compile(
        rf"\b{_MONTHS}\s+(\d{{1,2}},?\s+)?\d{{4}}\b|\b\d{{1,2}}\s+{_MONTHS}\s+\d{{4}}\b"
        r"|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|^\s*(19|20)\d{2}\s*$",
        re.IGNORECASE,
    ),
    "price": re.compile(r"([$£€¥]|\busd\b|\beur\b)\s?\d[\d,]*(\.\d\d)?|\b\d[\d,]*\.\d\d\b", re.IGNORECASE),
    "phone": re.compile(r"(\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}\b"),
    "url": re.compile(r"https?://|\bwww\.|\b[\w-]+\.(com|edu|org|net|gov|us|uk)\b", re.IGNORECASE),
    "height": re.compile(r"\b\d\s*(-|'|’|ft|feet)\s*\d{1,2}\b|\b\d(\.\d+)?\s*m\b|\b\d{3}\s*cm\b", re.IGNORECASE),
    "weight": re.compile(r"\b\d{2,3}\s*(lbs?|pounds|kg)\b|^\s*\d{3}\s*$", re.IGNORECASE),
    "mpaa": re.compile(r"^\s*(rated\s+)?(G|PG|PG-13|R|NC-17|NR|Not Rated|Unrated|TV-\w+)\b"),
    "mpg": re.compile(r"\b\d{1,3}\s*(mpg|miles per gallon)|\b\d{1,3}\s*/\s*\d{1,3}\b", re.IGNORECASE),
    "person": re.compile(r"^([A-Z][\w'.-]*\.?\s+){1,4}[A-Z][\w'.-]+$"),
    "count": re.compile(r"^\s*\d[\d,]*\s*([a-z]+)?\s*$", re.IGNORECASE),
    "engine": re.compile(r"\b\d\.\d\s*l\b|\bv\d{1,2}\b|\b\d+\s*cyl|\bcylinder|\bhp\b|\bturbo|\belectric", re.IGNORECASE),
    "address": re.compile(r"\d+\s+\w+.*\b(st|street|ave|avenue|rd|road|blvd|dr|drive|ln|way|pl|ct)\b", re.IGNORECASE),
}


COMPOSITE_SEPARATORS = "/|·•"
MAX_PARTS = 5


def composite_split(value: str) -> tuple[str, list[str]] | None:
    """(separator, parts) of a value made of several fields ("Adams Media / 2007 / Paperback"), if it is one."""
    for separator in COMPOSITE_SEPARATORS:
        parts = [p.strip() for p in value.split(separator)]
        if 2 <= len(parts) <= MAX_PARTS and all(parts) and f" {separator} " in value:
            return separator, parts
    return None


def part_regex(separator: str, index: int) -> str:
    """Group 1 is the ``index``-th part (from 0) of a value split on ``separator``."""
    sep = re.escape(separator)
    return rf"^(?:[^{sep}]*{sep}){{{index}}}\s*([^{sep}]*?)\s*(?:{sep}.*)?$"


def _isbn(value: str) -> bool:
    digits = re.sub(r"[^0-9Xx]", "", value)
    return bool(re.fullmatch(r"97[89]\d{10}", digits) or re.fullmatch(r"\d{9}[\dXx]", digits))


def _isbn13(value: str) -> bool:
    return bool(re.fullmatch(r"97[89]\d{10}", re.sub(r"[^0-9]", "", value)))


def _isbn10(value: str) -> bool:
    return bool(re.fullmatch(r"\d{9}[\dXx]", re.sub(r"[^0-9Xx]", "", value)))


def recogniser(kind: str | None) -> Callable[[str], bool] | None:
    """A predicate that says whether a value looks like ``kind`` (None when the field has no type)."""
    if kind is None:
        return None
    if kind == "isbn":
        return _isbn
    if kind == "isbn13":
        return _isbn13
    if kind == "isbn10":
        return _isbn10
    pattern = _PATTERNS[kind]
    if kind == "person":
        return lambda value: len(value) <= 60 and bool(pattern.search(value.strip(" ,;:")))
    return lambda value: bool(pattern.search(value))


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

    def avoided(self, text: str) -> bool:
        """Is this a known distractor for the field (a list price next to a sale price …)?"""
        return bool(self.avoid and re.search(self.avoid, text, re.IGNORECASE))

    @property
    def hard_type(self) -> bool:
        """Is the type a hard check (every value must have it), not a hint (person names vary)?"""
        return self.kind in HARD_KINDS

    def matches_type(self, value: str) -> bool | None:
        check = recogniser(self.kind)
        return None if check is None else check(value)


# (trigger words in name/instruction, labels, type, multiple, headline, class words, max length)
_CONCEPTS: list[tuple[tuple[str, ...], tuple[str, ...], str | None, bool, bool, tuple[str, ...], int]] = [
    (("isbn",), ("isbn-13", "isbn13", "isbn 13", "isbn", "ean", "isbn-10"), "isbn", False, False, ("isbn",), 40),
    (("author", "writer"), ("author", "authors", "by", "written by", "author(s)"), "person", True, False,
     ("author", "contributor"), 120),
    (("pages", "page_count", "pagecount"), ("pages", "page count", "number of pages", "print length", "length"),
     "count", False, False, ("pages", "pagecount"), 30),
    (("publisher", "imprint"), ("publisher", "published by", "imprint", "publisher name"), None, False, False,
     ("publisher", "imprint"), 120),
    (("publication", "pub_date", "published"), ("publication date", "pub date", "pub. date", "published",
     "publish date", "date published", "release date", "date", "on sale date", "publication"), "date", False,
     False, ("pubdate", "publication", "date"), 60),
    (("date_posted", "post the job", "posted"), ("date posted", "posted", "posted on", "post date", "date",
     "posting date"), "date", False, False, ("date", "posted"), 60),
    (("price",), ("price", "our price", "sale price", "your price", "list price", "msrp", "cost"), "price",
     False, False, ("price", "saleprice"), 40),
    (("phone", "telephone"), ("phone", "telephone", "tel", "phone number", "contact"), "phone", False, False,
     ("phone", "tel", "telephone"), 40),
    (("website", "url"), ("website", "web site", "url", "homepage", "web"), "url", False, False,
     ("website", "url", "web"), 120),
    (("height",), ("height", "ht", "ht."), "height", False, False, ("height",), 30),
    (("weight",), ("weight", "wt", "wt."), "weight", False, False, ("weight",), 30),
    (("director",), ("director", "directed by", "directors"), "person", True, False, ("director",), 120),
    (("genre",), ("genre", "genres", "category"), None, True, False, ("genre",), 80),
    (("mpaa",), ("mpaa rating", "rated", "rating", "mpaa", "certificate"), "mpaa", False, False,
     ("mpaa", "rating"), 40),
    (("team",), ("team", "current team"), None, False, False, ("team",), 80),
    (("address",), ("address", "location", "street address"), "address", False, False, ("address", "adr"), 160),
    (("cuisine",), ("cuisine", "cuisines", "food", "food type", "cuisine type"), None, True, False,
     ("cuisine",), 80),
    (("engine",), ("engine", "engine type", "motor"), "engine", False, False, ("engine",), 100),
    (("fuel",), ("fuel economy", "mpg", "fuel efficiency", "gas mileage", "city/hwy"), "mpg", False, False,
     ("mpg", "fuel"), 60),
    (("manufacturer", "brand", "make"), ("manufacturer", "brand", "make", "maker", "mfr"), None, False, False,
     ("brand", "manufacturer", "mfr"), 60),
    (("company",), ("company", "employer", "company name", "hiring company"), None, False, False,
     ("company", "employer"), 100),
    (("location", "working location"), ("location", "job location", "city", "where"), None, False, False,
     ("location", "city"), 100),
    (("type",), ("type", "institution type", "school type", "control", "type of school"), None, False, False,
     ("type",), 80),
]
# distractors that sit next to the real value on many sites: struck-through, list and "was" prices
AVOID = {"price": r"\b(list|was|rrp|msrp|retail|original|regular|old|save|savings|compare|club|member|members)\b"
                  r"|/(s|del|strike)\b"}
HARD_KINDS = frozenset({"isbn", "isbn13", "isbn10", "price", "date", "url", "phone", "count"})
_HEADLINE_TRIGGERS = ("title", "name", "model")


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")))


_TARGET_PHRASE = re.compile(r"\bthe\s+(?:\w+'s\s+)?([a-z0-9][\w()\-/ ]{0,30}?)(?:\s+(?:of|that|for|on|in)\b|\s*[.?!]|$)")


def instruction_label(instruction: str) -> str | None:
    """The phrase an instruction asks for ("the *online price* of the book"): often the page's own label."""
    match = _TARGET_PHRASE.search(instruction.lower())
    return match.group(1).strip() if match else None


def concept_for(name: str, instruction: str = "") -> FieldConcept:
    """The field's concept, plus the instruction's own target phrase as the first label to look for."""
    concept = _base_concept(name, instruction)
    phrase = instruction_label(instruction)
    if phrase and phrase not in concept.labels:
        concept = replace(concept, labels=(phrase, *concept.labels))
    return concept


def _base_concept(name: str, instruction: str = "") -> FieldConcept:
    """Read a field's concept from its name first, then its instruction; fall back to its own words."""
    for source in (name.lower(), instruction.lower()):
        words = _words(source)
        for triggers, labels, kind, multiple, headline, class_words, max_length in _CONCEPTS:
            if any((t in words) or (" " in t or "_" in t) and t in source for t in triggers):
                if kind == "isbn" and "13" in (name + instruction):
                    kind = "isbn13"
                elif kind == "isbn" and "10" in (name + instruction):
                    kind = "isbn10"
                return FieldConcept(name, labels, kind, multiple, headline, class_words, max_length,
                                    AVOID.get(kind or ""))
        if words & set(_HEADLINE_TRIGGERS) and source == name.lower():
            return FieldConcept(name, (name.lower().replace("_", " "),), None, False, True, ("title", "name"), 300)
    plain = name.lower().replace("_", " ").strip()
    headline = bool(_words(instruction) & set(_HEADLINE_TRIGGERS)) and "of the" in instruction.lower()
    return FieldConcept(name, (plain,), None, False, headline, tuple(_words(name)), 300 if headline else 200)
