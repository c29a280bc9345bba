"""The actionable elements of a live page, with their role, accessible label, live value/state and visibility.

Read from the browser snapshot: the markdown view's ``[id: N]`` nodes are the visible interactive elements
(the snapshot already carries the live state, see ``web.browser.snapshot.LIVE_STATE_JS``), and
:func:`text_targets` adds plain visible elements whose own text a task names (pages often make a ``<span>``
or ``<div>`` clickable with a script that markup does not show). The candidate generator
(``insta.candidates``) turns them into actions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from scrapesmith.dom import (
    HtmlElement,
    accessible_name,
    expanded_state,
    is_checked,
    is_focused,
    is_hidden,
    is_interactive,
    is_selected,
    live_value,
    node_text,
    normalize_text,
)
from scrapesmith.dom.simplify import SKIPPED_TAGS
from scrapesmith.insta.views import Element

TEXT_INPUTS = frozenset({"text", "search", "email", "password", "tel", "url", "number", "date", "time",
                         "datetime-local", "month", "week", ""})
BUTTON_INPUTS = frozenset({"submit", "button", "reset", "image"})
MAX_TEXT = 80
_ID = re.compile(r"\[id: (\d+)\]")
_SPLIT = re.compile(r"[-_\s]+")


def role_of(element: HtmlElement) -> str:
    tag, role = element.tag, (element.get("role") or "").lower()
    if tag == "input":
        kind = (element.get("type") or "").lower()
        if kind in ("checkbox", "radio"):
            return kind
        if kind in BUTTON_INPUTS:
            return "button"
        return "textbox" if kind in TEXT_INPUTS else kind
    if tag == "textarea" or role in ("textbox", "searchbox"):
        return "textbox"
    if tag == "select":
        return "select"
    if tag == "a" or role == "link":
        return "link"
    if tag == "button" or role == "button":
        return "button"
    return role or ("summary" if tag == "summary" else "clickable")


def widget_kind(element: HtmlElement) -> str | None:
    """``slider`` or ``spinbutton`` by ARIA role or input type, else ``slider`` for a control whose classes (or its
    parent's) say so: widget libraries mark a slider's handle that way even when they expose no role."""
    role = (element.get("role") or "").lower()
    if role in ("slider", "spinbutton"):
        return role
    if element.tag == "input" and (element.get("type") or "").lower() == "range":
        return "slider"
    parent = element.getparent()
    classes = f"{element.get('class') or ''} {parent.get('class') or '' if parent is not None else ''}"
    return "slider" if "slider" in _SPLIT.split(classes.casefold()) and is_interactive(element) else None


def describe(element: HtmlElement, ident: int, shown: bool = True, role: str | None = None) -> Element:
    """The :class:`Element` of one node (``data-ss-id`` = ``ident``)."""
    role = role or role_of(element)
    options = []
    selected = None
    if element.tag == "select":
        for option in element.iter("option"):
            text = normalize_text(option.text_content())
            options.append(text)
            if is_selected(option) and selected is None:
                selected = text
    value: str | None = None
    if role == "textbox":
        value = normalize_text(live_value(element) or "")
    elif role == "select":
        value = selected if selected is not None else (options[0] if options else None)
    elif element.tag == "input" and role == "button":
        value = normalize_text(live_value(element) or "")
    text = "" if role in ("textbox", "select") else node_text(element)[:MAX_TEXT]
    label = accessible_name(element)
    if role == "textbox" and not label:
        label = normalize_text(element.get("placeholder") or "")
    return Element(
        id=ident, tag=str(element.tag), role=role, label=label, text=text, value=value, widget=widget_kind(element),
        readonly=element.get("readonly") is not None and role == "textbox",
        input_type=(element.get("type") or "text").lower() if element.tag == "input" else None,
        hint=" ".join(filter(None, (element.get("id"), element.get("name"), element.get("placeholder")))),
        options=options, checked=is_checked(element) if role in ("checkbox", "radio") else None,
        expanded=expanded_state(element), focused=is_focused(element), shown=shown,
    )


def actionable_elements(nodes: dict[int, HtmlElement], shown_text: str | None = None) -> list[Element]:
    """The markdown view's interactive nodes as :class:`Element` s, in page order; ``shown_text`` (the
    observation actually given to the model) decides ``shown``."""
    shown_ids = {int(match) for match in _ID.findall(shown_text)} if shown_text is not None else None
    return [describe(node, ident, shown=shown_ids is None or ident in shown_ids)
            for ident, node in sorted(nodes.items())]


def _visible(element: HtmlElement) -> bool:
    return not any(is_hidden(node) for node in (element, *element.iterancestors()))


MAX_CONTEXT = 100


def _unclaimed_id(element: HtmlElement, known: Container[int]) -> int | None:
    """The element's snapshot id, unless it is hidden, already offered, or inside an offered element."""
    ident = element.get("data-ss-id")
    if ident is None or not ident.isdigit() or int(ident) in known or not _visible(element):
        return None
    if any((a.get("data-ss-id") or "").isdigit() and int(a.get("data-ss-id")) in known
           for a in element.iterancestors()):
        return None
    return int(ident)


def icon_name(element: HtmlElement) -> str:
    """What names an element without text: aria-label, title, alt, else its class words (``icon-star``), else
    its id's words (``send-forward``)."""
    for attribute in ("aria-label", "title", "alt"):
        if normalize_text(element.get(attribute)):
            return normalize_text(element.get(attribute))
    for attribute in ("class", "id"):
        words = [w for value in (element.get(attribute) or "").split() for w in _SPLIT.split(value) if w.isalpha()]
        if words:
            return " ".join(dict.fromkeys(words))
    return ""


def context_of(element: HtmlElement, own: str) -> str:
    """The text of the nearest ancestor that says more than the element itself (a row, a card)."""
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth >= 6 or ancestor.tag in ("body", "html"):
            break
        text = node_text(ancestor)
        if len(text) > len(own) + 3:
            return text[:MAX_CONTEXT]
    return ""


def pointer_targets(root: HtmlElement, known: set[int], limit: int = 40) -> list[Element]:
    """Visible elements a script made clickable (``data-ss-pointer``) that markup does not mark interactive."""
    found: list[Element] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element.get("data-ss-pointer") != "true" or is_interactive(element):
            continue
        ident = _unclaimed_id(element, known)
        if ident is None:
            continue
        item = describe(element, ident, role="clickable")
        if not item.text:
            item.text = icon_name(element)
        if item.text:
            found.append(item)
        if len(found) >= limit:
            break
    return found


def with_context(elements: list[Element], root: HtmlElement | None) -> list[Element]:
    """Give every element whose name is not unique on the page the text of its row or card."""
    if root is None:
        return elements
    counts: dict[str, int] = {}
    for element in elements:
        counts[element.name.casefold()] = counts.get(element.name.casefold(), 0) + 1
    nodes = {int(n.get("data-ss-id")): n for n in root.iter()
             if isinstance(n.tag, str) and (n.get("data-ss-id") or "").isdigit()}
    for element in elements:
        if counts.get(element.name.casefold(), 0) > 1 and element.id in nodes and not element.context:
            element.context = context_of(nodes[element.id], element.name)
    return elements


def text_targets(root: HtmlElement, named: Callable[[str], bool], known: set[int], limit: int = 20,
                 skip_within: Callable[[str], bool] | None = None) -> list[Element]:
    """Visible non-interactive elements whose own text the task names (``named(text)``), the innermost such
    element, not inside an element already in ``known``; at most ``limit``. Elements inside the smallest
    element whose text ``skip_within`` (a page that displays the task restates it: that is the instruction,
    not a target) are left out."""
    found: dict[int, Element] = {}
    body = root.find(".//body")
    scope = body if body is not None else root
    skipped: set[HtmlElement] = set()
    if skip_within is not None:
        restating = [e for e in scope.iter() if isinstance(e.tag, str) and e.tag not in SKIPPED_TAGS
                     and len(node_text(e)) <= 4 * MAX_TEXT and skip_within(node_text(e))]
        innermost = [e for e in restating if not any(other is not e and any(a is e for a in other.iterancestors())
                                                      for other in restating)]
        skipped = {node for element in innermost for node in element.iter()}
    for element in scope.iter():
        if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS or is_interactive(element):
            continue
        if element in skipped or element.tag == "label" or any(a.tag == "label" for a in element.iterancestors()):
            continue  # a label acts on its control, which is a candidate already
        text = node_text(element)
        role = "text"
        if not text and len(element) == 0:
            text, role = icon_name(element), "icon"  # an icon: named by its class, title or alt
        if not text or len(text) > MAX_TEXT or not named(text):
            continue
        if role == "text" and any(node_text(child).casefold() == text.casefold()
                                  for child in element if isinstance(child.tag, str)):
            continue  # a child carries the same text: the innermost element is the target
        ident = _unclaimed_id(element, known)
        if ident is None:
            continue
        found[ident] = describe(element, ident, role=role)
        if role == "icon":
            found[ident].text = text
        if len(found) >= limit:
            break
    return list(found.values())


SUGGESTION_TAGS = frozenset({"li", "option"})
SUGGESTION_ROLES = frozenset({"option", "menuitem"})


def suggestion_targets(root: HtmlElement, wanted: list[str], known: set[int], limit: int = 20) -> list[Element]:
    """Visible list items (``li``, ``option``, ``role=option|menuitem``) whose text holds every one of ``wanted``
    (the task's quoted values) and is more than any one of them: the suggestion an autocomplete list offers for
    what was typed ("San Marino" for "Sa" ... "ino"). The innermost such element, inside a known one or not."""
    if not wanted:
        return []
    found: list[Element] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag not in SUGGESTION_TAGS and (element.get("role") or "").lower() not in SUGGESTION_ROLES:
            continue
        text = node_text(element)
        low = text.casefold()
        if not text or len(text) > MAX_TEXT or any(low == w.casefold() for w in wanted) \
                or not all(w.casefold() in low for w in wanted):
            continue
        while len(element) == 1 and isinstance(element[0].tag, str) and node_text(element[0]) == text:
            element = element[0]  # the innermost element with that text is what a user clicks
        ident = element.get("data-ss-id")
        if not (ident or "").isdigit() or int(ident) in known or not _visible(element):
            continue
        item = describe(element, int(ident), role="option")
        item.text = text
        found.append(item)
        if len(found) >= limit:
            break
    return found
