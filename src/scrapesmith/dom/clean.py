"""AutoScraper's page preprocessing (the paper's section 4.1).

AutoScraper feeds the LLM pages with ``<script>`` and ``<style>`` elements removed and every attribute but
``@class`` deleted: the layout classes are what XPaths anchor on, while scripts, inline styles and tracking
attributes only burn tokens. We also drop ``<noscript>``, comments and processing instructions, which
carry no visible content in a scripted browser. Callers that need more attributes (links need ``href``,
the browser runtime needs ``data-ss-id``) pass ``keep_attributes``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

import lxml.html
from lxml import etree

from scrapesmith.dom.parse import HtmlElement, parse_html
from scrapesmith.dom.parse import keep_attributes as keep_only

DROPPED_TAGS: tuple[str, ...] = ("script", "style", "noscript", "template")
AUTOSCRAPER_ATTRIBUTES: frozenset[str] = frozenset({"class"})


def clean_tree(
    tree: HtmlElement,
    keep_attributes: Iterable[str] = AUTOSCRAPER_ATTRIBUTES,
    drop_tags: Iterable[str] = DROPPED_TAGS,
) -> HtmlElement:
    """Return a cleaned deep copy of ``tree``; the original (and its node identities) stays untouched."""
    cleaned = copy.deepcopy(tree)
    etree.strip_elements(cleaned, *drop_tags, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    keep = frozenset(keep_attributes)
    for element in cleaned.iter(etree.Element):
        dropped = [name for name in element.attrib if name not in keep]
        try:
            for name in dropped:
                del element.attrib[name]
        except (ValueError, KeyError):  # a name lxml cannot look up, such as ``{a}b``
            keep_only(element, [name for name in element.attrib if name in keep])
    return cleaned


def clean_html(source: str | bytes, keep_attributes: Iterable[str] = AUTOSCRAPER_ATTRIBUTES) -> str:
    """Parse and clean ``source`` and serialise it again: the HTML an AutoScraper prompt shows."""
    cleaned = clean_tree(parse_html(source), keep_attributes=keep_attributes)
    return lxml.html.tostring(cleaned, encoding="unicode")
