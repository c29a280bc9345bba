"""Numeric element ids shared by the simplified DOM, the markdown view and the browser runtime.

An LLM names elements by small integers (BardeenAgent's ``#3``, InSTA's ``[id: 3]``); code must map them
back to nodes. The id lives on the element as ``data-ss-id``: the browser runtime stamps live DOM elements
that way, and :func:`assign_ids` stamps parsed trees, so every view of the same page agrees on the ids.
"""

from __future__ import annotations

from lxml import etree

from scrapesmith.dom.parse import HtmlElement

ID_ATTRIBUTE = "data-ss-id"


def node_id(element: HtmlElement) -> int | None:
    """The element's numeric id, or ``None`` when it has none (or a malformed one)."""
    value = element.get(ID_ATTRIBUTE)
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def assign_ids(tree: HtmlElement) -> dict[int, HtmlElement]:
    """Stamp ``data-ss-id`` on every element of ``tree``'s document that lacks one; return ``tree``'s ids.

    Existing ids are kept (so ids stay stable across calls and agree with the browser's stamps); new
    elements are numbered in document order after the largest id present.
    """
    root = tree.getroottree().getroot()
    elements = list(root.iter(etree.Element))
    stamped = [node_id(element) for element in elements]
    next_id = max((ident for ident in stamped if ident is not None), default=0) + 1
    for element, ident in zip(elements, stamped):
        if ident is None:
            element.set(ID_ATTRIBUTE, str(next_id))
            next_id += 1
    return nodes_by_id(tree)


def nodes_by_id(tree: HtmlElement) -> dict[int, HtmlElement]:
    """Every id-carrying element within ``tree`` (itself included)."""
    nodes: dict[int, HtmlElement] = {}
    for element in tree.iter(etree.Element):
        ident = node_id(element)
        if ident is not None:
            nodes[ident] = element
    return nodes
