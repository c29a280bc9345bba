"""Which elements a user can see and act on, judged from markup alone.

Both LLM views of a page (simplified DOM, markdown) drop what a browser would not show and mark what a
user could click or type into. Without a browser we go by markup: ``hidden``, ``aria-hidden``, inline
``display:none``, hidden inputs; interactive tags, ARIA widget roles, ``onclick`` and ``tabindex``.
A page serialised by the browser runtime also carries the live state as ``data-ss-*`` attributes
(``web.browser.snapshot.LIVE_STATE_JS``): computed hiding, typed values, checked boxes, chosen options and
the focus; :func:`live_value`, :func:`is_checked`, :func:`is_selected` and :func:`is_focused` prefer them to
the served attributes.
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
    """Hidden by attribute, inline style, or (in a browser snapshot) by the computed style."""
    attributes = element.attrib
    if attributes.get("data-ss-hidden") == "true":
        return True
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


def live_value(element: HtmlElement) -> str | None:
    """What a text field holds now: the live value in a browser snapshot, else the served one."""
    value = element.get("data-ss-value")
    if value is not None:
        return value
    if element.tag == "textarea":
        return element.text_content()
    return element.get("value")


def is_checked(element: HtmlElement) -> bool:
    live = element.get("data-ss-checked")
    return live == "true" if live is not None else element.get("checked") is not None


def is_selected(option: HtmlElement) -> bool:
    live = option.get("data-ss-selected")
    return live == "true" if live is not None else option.get("selected") is not None


def is_focused(element: HtmlElement) -> bool:
    return element.get("data-ss-focused") == "true"


def expanded_state(element: HtmlElement) -> str | None:
    """``expanded``/``collapsed`` for disclosure widgets (``aria-expanded``, a ``<details>`` summary)."""
    aria = (element.get("aria-expanded") or "").lower()
    if aria in ("true", "false"):
        return "expanded" if aria == "true" else "collapsed"
    if element.tag == "summary":
        parent = element.getparent()
        if parent is not None and parent.tag == "details":
            return "expanded" if parent.get("open") is not None else "collapsed"
    return None
