"""A value cut in two by inline markup: a text node and the inline element right after it, read as one.

Templates mark a name's parts, a price's cents or a street number apart from the street
(``Address: 2477 <span>Arctic Blvd., Anchorage</span>``, ``<h1>The <span>Girl with the Dragon
Tattoo</span></h1>``): what a reader sees is one value, but no element holds it alone, so a path to the text
node gives its first word and a path to the element the rest. For a candidate that reads a text node, when
on a seed page that node runs straight into an inline element, the same candidate is also proposed joined
with it: XPath's ``concat()`` of the node and the element of that tag right after it (nothing when the next
page's value is drawn whole). The ranking then decides on the seed pages' values: the joined reading wins
where it has the field's kind or the title's words and the cut one does not, and the element
alone, the value's second half, gives way to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from lxml import etree

from scrapesmith.induce.candidates import FieldCandidate, xpath_literal
from scrapesmith.induce.execute import folded, normalize_space
from scrapesmith.induce.labels import is_ui_text

# elements that continue a line of text rather than start a new one, and are not a link to elsewhere
INLINE_TAGS = frozenset({"span", "b", "strong", "i", "em", "small", "font", "sup", "sub", "u", "mark", "abbr"})
_TEXT_PATH = re.compile(r"text\(\)(?:\[1\])?$")
_JOINED = re.compile(r"^concat\(\((?P<path>.+)\)\[1\], \((?P=path)\)\[1\]/following-sibling::node\(\)\[1\]"
                     r"\[self::[\w-]+\[.*\]\]\)$")
MAX_JOINED_WORDS = 40


def joined_xpath(path: str, following: etree._Element) -> str:
    """``concat((P)[1], (P)[1]/following-sibling::node()[1][self::span[…]])``: the first text node ``path``
    selects and the element right after it, if it is of ``following``'s tag and class (none: no class), as
    one string. The class keeps another inline element the template puts there ("[Paperback]" after a
    one-word title that needed no second part) out of the value."""
    cls = following.get("class")
    test = f"@class={xpath_literal(cls)}" if cls else "not(@class)"
    return f"concat(({path})[1], ({path})[1]/following-sibling::node()[1][self::{following.tag}[{test}]])"


def text_part(xpath: str) -> str | None:
    """The text-node path of a joined XPath (where its value starts on the page), else None."""
    match = _JOINED.match(xpath)
    return f"({match.group('path')})[1]" if match else None


def continuation(node: object) -> etree._Element | None:
    """The inline element a text node runs straight into, when it holds text of its own and is no label."""
    if not isinstance(node, str) or not node.strip() or not hasattr(node, "getparent"):
        return None
    owner = node.getparent()
    if owner is None:
        return None
    return _continues(owner.getnext() if getattr(node, "is_tail", False) else (owner[0] if len(owner) else None))


def leading_text(element: etree._Element) -> str:
    """The first text ``element`` shows (its own, or its first child's when it has none: ``<h1><span>The…``)
    joined with the inline element it runs into ("The Girl Who…" of ``<h1>The <span>Girl Who…</span>
    <span>[Hardcover]</span></h1>``), else that text alone."""
    while not (element.text or "").strip() and len(element) and isinstance(element[0].tag, str):
        element = element[0]
    own = element.text or ""
    following = _continues(element[0] if own.strip() and len(element) else None)
    return normalize_space(own + (following.text or "") if following is not None else own)


def _continues(following: etree._Element | None) -> etree._Element | None:
    if following is None or not isinstance(following.tag, str) or following.tag not in INLINE_TAGS:
        return None
    if len(following):  # "(<a>1994</a>)", "<a>See all certifications</a>": a note or a control, not more words
        return None
    text = normalize_space(following.text or "")
    if not text or text.endswith(":") or text[0] in "([{" or is_ui_text(text) or len(text.split()) > MAX_JOINED_WORDS:
        return None
    return following


def joined_candidates(root: etree._Element, found: list[FieldCandidate]) -> list[FieldCandidate]:
    """For each candidate in ``found`` that reads a text node running into an inline element on this page,
    the same candidate joined with that element."""
    joined = []
    for candidate in found:
        if not _TEXT_PATH.search(candidate.xpath):
            continue
        try:  # smart strings: a text node that knows its parent
            nodes = etree.XPath(candidate.xpath)(root)
        except etree.XPathError:
            continue
        following = continuation(nodes[0]) if isinstance(nodes, list) and nodes else None
        if following is not None:
            joined.append(replace(candidate, xpath=joined_xpath(candidate.xpath, following)))
    return joined


def cut_short(part: list[list[str]], whole: list[list[str]], titles: Sequence[str] | None = None) -> bool:
    """Does ``part`` read a piece of the value ``whole`` reads whole (one value a page, on every page it
    reads, shorter on one at least)? Its second half always ("Arctic Blvd." of "2477 Arctic Blvd."); its
    first half only when the page ``titles`` (folded) hold the whole value too ("The" of "The Overton
    Window"): elsewhere the text alone may be the whole value and the element after it something else."""
    if len(part) != len(whole) or any(len(p) > 1 or (p and not w) for p, w in zip(part, whole, strict=True)):
        return False
    pairs = [(p[0], w[0]) for p, w in zip(part, whole, strict=True) if p]
    if not pairs or not any(len(w) > len(p) for p, w in pairs):
        return False
    if all(w.endswith(p) for p, w in pairs):
        return True
    return titles is not None and all(w.startswith(p) and folded(w) in t
                                      for (p, w), t in zip(pairs, titles, strict=False))
