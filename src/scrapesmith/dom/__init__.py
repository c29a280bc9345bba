"""Understanding pages: parse, clean, simplify, render as markdown, build and evaluate selectors.

The few nouns every capability needs are re-exported here; each module's docstring says why it exists.
"""

from scrapesmith.dom.clean import clean_html, clean_tree
from scrapesmith.dom.ids import ID_ATTRIBUTE, assign_ids, node_id
from scrapesmith.dom.markdown import MarkdownView, to_markdown
from scrapesmith.dom.parse import HtmlElement, absolutize, document_base_url, parse_html
from scrapesmith.dom.selectors import (
    SelectorError,
    absolute_xpath,
    css_selector,
    is_obfuscated_class,
    node_text,
    normalize_text,
    relative_xpath,
    robust_xpath,
    select,
    select_text,
)
from scrapesmith.dom.simplify import SimplifiedDom, simplify
from scrapesmith.dom.tokens import estimate_tokens

__all__ = [
    "ID_ATTRIBUTE", "HtmlElement", "MarkdownView", "SelectorError", "SimplifiedDom", "absolute_xpath",
    "absolutize", "assign_ids", "clean_html", "clean_tree", "css_selector", "document_base_url",
    "estimate_tokens", "is_obfuscated_class", "node_id", "node_text", "normalize_text", "parse_html",
    "relative_xpath", "robust_xpath", "select", "select_text", "simplify", "to_markdown",
]
