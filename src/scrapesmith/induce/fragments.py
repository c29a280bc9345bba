"""Small HTML for small models: the region of a page an LLM is shown, and how it is written out.

AutoScraper shows the model the cleaned page (scripts and styles removed, only ``@class`` kept). A whole
cleaned page is still thousands of tokens, far beyond what a CPU-hosted 1.5B model reads in reasonable
time, so the first action of a sequence may prune the page to the region around the heuristic
candidates' value nodes: the same pruning operation the paper's step-back performs, proposed by the
candidates rather than by the model.
"""

from __future__ import annotations

import lxml.html
from lxml import etree

from scrapesmith.dom import clean_tree, estimate_tokens
from scrapesmith.induce.candidates import anchored_path
from scrapesmith.induce.execute import XPathSyntaxError, compile_xpath
from scrapesmith.induce.joined import text_part

MAX_TEXT_CHARS = 80


def value_nodes(root: etree._Element, xpath: str) -> list[etree._Element]:
    """The elements an XPath points at; a text or attribute result stands for its parent element, a joined
    text (:mod:`scrapesmith.induce.joined`) for the element its first part is in."""
    xpath = text_part(xpath) or xpath
    try:
        result = etree.XPath(xpath)(root)
    except (etree.XPathError, XPathSyntaxError):
        return []
    nodes: list[etree._Element] = []
    for item in result if isinstance(result, list) else []:
        node = item if isinstance(item, etree._Element) else getattr(item, "getparent", lambda: None)()
        if isinstance(node, etree._Element) and node not in nodes:
            nodes.append(node)
    return nodes


def fragment_html(element: etree._Element, max_tokens: int) -> str:
    """``element`` cleaned as AutoScraper cleans pages, long texts shortened, cut to ``max_tokens``."""
    cleaned = clean_tree(element) if isinstance(element, lxml.html.HtmlElement) else element
    for node in cleaned.iter():
        for attribute in ("text", "tail"):
            text = getattr(node, attribute)
            if text and len(text) > MAX_TEXT_CHARS:
                setattr(node, attribute, text[:MAX_TEXT_CHARS] + "…")
    text = lxml.html.tostring(cleaned, encoding="unicode")
    text = "\n".join(line.strip() for line in text.splitlines() if line.strip())
    if estimate_tokens(text) <= max_tokens:
        return text
    keep = int(len(text) * max_tokens / max(1, estimate_tokens(text)))
    return text[:keep] + "\n… (cut)"


def _common_ancestor(nodes: list[etree._Element]) -> etree._Element | None:
    if not nodes:
        return None
    chains = [[node, *node.iterancestors()] for node in nodes]
    for ancestor in chains[0]:
        if all(ancestor in chain for chain in chains[1:]):
            return ancestor
    return None


def region_for(root: etree._Element, xpaths: list[str], max_tokens: int) -> etree._Element:
    """The largest ancestor of the candidates' value nodes whose fragment fits ``max_tokens``."""
    nodes = [n for xpath in xpaths for n in value_nodes(root, xpath)[:2]]
    region = _common_ancestor(nodes)
    if region is None:
        body = root.find("body")
        return body if body is not None else root
    while True:
        parent = region.getparent()
        if parent is None or estimate_tokens(fragment_html(parent, 10**9)) > max_tokens:
            return region
        region = parent


def region_xpath(root: etree._Element, region: etree._Element) -> str | None:
    """An XPath that selects exactly ``region`` on this page, anchored on class/id when possible."""
    if region is root or region.tag == "html":
        return None
    for path in [*anchored_path(region), root.getroottree().getpath(region)]:
        try:
            selected = compile_xpath(path)(root)
        except XPathSyntaxError:
            continue
        if isinstance(selected, list) and len(selected) == 1 and selected[0] is region:
            return path
    return None
