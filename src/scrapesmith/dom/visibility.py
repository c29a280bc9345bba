"""Which elements a user can see and act on, judged from markup alone.

Both LLM views of a page (simplified DOM, markdown) drop what a browser would not show and mark what a
user could click or type into. Without a browser we go by markup: ``hidden``, ``aria-hidden``, inline
``display:none``, hidden inputs; interactive tags, ARIA widget roles, ``onclick`` and ``tabindex``.
"""

from __future__ import annotations

import re

from scrapesmith.dom.parse import HtmlElement

INTERACTIVE_TAGS = frozenset({"a", "button", "input", "select", "textarea", "option", "summary"})
INTERACTIVE_ROLES = frozenset({
    "button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "switch", "combobox", "textbox", "searchbox", "slider", "spinbutton", "treeitem",
})
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def is_hidden(element: HtmlElement) -> bool:
    """Hidden by attribute or inline style (class-based hiding needs a browser and is not detected)."""
    attributes = element.attrib
    if "hidden" in attributes or attributes.get("aria-hidden") == "true":
        return True
    if element.tag == "input" and (attributes.get("type") or "").lower() == "hidden":
        return True
    style = attributes.get("style")
    return bool(style and _HIDDEN_STYLE.search(style))


def is_interactive(element: HtmlElement) -> bool:
    """Could a user click, type into or choose this element?"""
    attributes = element.attrib
    if element.tag in INTERACTIVE_TAGS:
        return element.tag != "a" or "href" in attributes or "onclick" in attributes
    if "onclick" in attributes or (attributes.get("role") or "").lower() in INTERACTIVE_ROLES:
        return True
    if attributes.get("contenteditable", "").lower() in ("", "true") and "contenteditable" in attributes:
        return True
    tabindex = attributes.get("tabindex")
    return tabindex is not None and tabindex.strip().lstrip("+").isdigit()
