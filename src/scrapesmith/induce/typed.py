"""Candidates found by the value's kind alone: short texts that read as the field's type (an ISBN, a price, a
date, a phone number), whole, as one part of a composite ("Adams Media / 2007 / Paperback"), drawn across inline
elements ("(512) <span>471-3434</span>"), after a label's element, or as one line of a ``<br>`` block found by
its shape.
"""

from __future__ import annotations

import re

from lxml import etree

from scrapesmith.induce.candidates import (
    VALUE_STRIP,
    FieldCandidate,
    anchored_path,
    inner_box,
    visible_elements,
    xpath_literal,
)
from scrapesmith.induce.execute import normalize_space
from scrapesmith.induce.field_evidence import FieldConcept, composite_split, part_regex


def _typed(text: str, concept: FieldConcept) -> tuple[bool, str | None]:
    """Does ``text`` have the field's type, whole or as one part of a composite (then with the part's regex)?"""
    if concept.matches_type(text):
        return True, None
    split = composite_split(text)  # "Adams Media / 2007 / Paperback": the date is one part
    typed = [i for i, part in enumerate(split[1]) if concept.matches_type(part)] if split else []
    if split and len(typed) == 1:
        return True, part_regex(split[0], typed[0])
    return False, None


INLINE_TAGS = frozenset({"span", "b", "strong", "i", "em", "small", "sup", "sub", "font", "u"})


def _split_inline(element: etree._Element) -> bool:
    """Does ``element`` hold one short text drawn across inline elements (``$<sup>19</sup>.99``, ``John
    <span>Smith</span>``): only inline children, none with children of its own?"""
    return bool(len(element)) and all(c.tag in INLINE_TAGS and not len(c) for c in element)


_DIGITS_AS_ZERO = str.maketrans("0123456789", "0000000000")



def type_candidates(root: etree._Element, concept: FieldConcept) -> list[FieldCandidate]:
    """Short text nodes whose value has the field's type (an ISBN, a price, a date, a person's name …)."""
    if not concept.finds_values:
        return []
    found: list[FieldCandidate] = []
    for element in visible_elements(root):
        tail = normalize_space(element.tail or "").strip(VALUE_STRIP)
        whole = normalize_space(element.text_content())
        # "<b>Publisher:</b> Adams Media / 2007": after any label, also one a template wraps in a box of its own
        if tail and len(tail) <= concept.max_length and 0 < len(whole) <= 40 and not len(inner_box(element)[0]):
            typed, regex = _typed(tail, concept)
            if typed:
                found.append(FieldCandidate(f"//{element.tag}[normalize-space()={xpath_literal(whole)}]"
                                       "/following-sibling::text()[1]", "type", regex))
        elif tail and element.tag == "br" and len(tail) <= concept.max_length:
            typed, regex = _typed(tail, concept)  # "<br />(325) 674-2000": a line of an address block
            parent = element.getparent()
            shape = tail.translate(_DIGITS_AS_ZERO)
            # the line of the value's shape, wherever the block puts it; a shape that keeps the value's letters
            # ("June 00, 0000") is the seeds' month, not a shape: such a line is found by its place alone
            if typed and parent is not None and not re.search(r"[^\W\d_]", shape):
                found += [FieldCandidate(f"{path}/text()[translate(normalize-space(), '0123456789', '0000000000')"
                                         f"={xpath_literal(shape)}]", "type", regex)
                          for path in anchored_path(parent, hashed=True)[:3]]
            elif typed and parent is not None:
                found += block_lines(element, regex)
        own = normalize_space(element.text or "")
        if not own or len(own) > concept.max_length:
            continue
        typed, regex = _typed(own, concept)
        split = (not typed and _split_inline(element) and len(whole) <= concept.max_length
                 and not own.endswith((":", "：")))  # "Web site: <span>…</span>" is a label and its value
        if split:  # "(512) <span>471-3434</span>": one value drawn across inline elements is read whole
            typed, regex = _typed(whole, concept)
        if not typed:
            continue
        paths = anchored_path(element)[:3] + anchored_path(element, hashed=True)[:2]
        for path in dict.fromkeys(paths):
            found.append(FieldCandidate(path if split or not len(element) else f"{path}/text()", "type", regex))
        if len(found) > 80:
            break
    return found


def block_lines(br: etree._Element, regex: str | None = None) -> list[FieldCandidate]:
    """The line after ``br`` by its place in its block, when it is the block's last line ("St. Martin's
    Press<br/>June 29, 2010": the date is the last line whatever month the seeds happen to print, which a
    shape of its letters would not carry). A line counted from the block's start moves when an earlier line
    is missing from a record, so the last place is the one offered."""
    texts = br.xpath("following-sibling::text()[1]")
    if not texts or texts[0].getparent() is not br:
        return []
    found: list[FieldCandidate] = []
    parent = br.getparent()
    later = [t for t in br.itersiblings() if isinstance(t.tag, str) and normalize_space(t.text_content())
             or normalize_space(t.tail or "")]
    if parent is not None and not later:
        found += [FieldCandidate(f"{path}/text()[normalize-space()][last()]", "type", regex)
                  for path in anchored_path(parent, hashed=True)[:3]]
    return found
