"""Links whose address names the field: ``<a href="restaurants_cuisine:134.html">Indian</a>``.

A site that files its records by a property (cuisine, genre, brand …) links each value to the listing of
records that share it, and the link's address carries the property's name whatever the label before it
says or how the page's classes are spelt. It is evidence a template change leaves alone: labels reworded or
drawn as icons, classes renamed, boxes wrapped. The path tests a piece of the address the field's name
ends (``contains(@href, 'cuisine:')``), so links that merely mention a longer word ("cuisines") do not count.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, visible_elements, xpath_literal
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept
from scrapesmith.induce.labels import is_ui_text

MIN_WORD = 4


def _naming_piece(href: str, words: tuple[str, ...]) -> str | None:
    """The piece of ``href`` (path and query) that names the field: one of ``words`` as a whole word,
    with the separator after it, or at the end of the address."""
    parts = urlsplit(href)
    address = f"{parts.path}?{parts.query}" if parts.query else parts.path
    lowered = address.lower()
    for word in words:
        for match in re.finditer(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered):
            after = lowered[match.end() : match.end() + 1]
            if after and after.isdigit():
                continue
            return address[match.start() : match.end() + len(after)]
    return None


def link_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """Links whose address names the field (by a word of its name) and whose text could be its value."""
    if concept.headline:  # a link naming "name" or "title" points at some record's page, not this one's name
        return []
    words = tuple(w for w in concept.class_words if len(w) >= MIN_WORD)
    if not words:
        return []
    found: dict[str, FieldCandidate] = {}
    for element in visible_elements(root):
        href = element.get("href") if element.tag == "a" else None
        text = normalize_space(element.text_content()) if href else ""
        if not text or len(text) > concept.max_length or is_ui_text(text):
            continue
        piece = _naming_piece(href or "", words)
        if piece:
            path = f"//a[contains(@href, {xpath_literal(piece)})]"
            found.setdefault(path, FieldCandidate(path, "linked"))
    return list(found.values())
