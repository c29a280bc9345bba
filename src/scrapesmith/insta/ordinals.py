"""The N-th element of a kind: "click the 3rd checkbox", "Focus into the 2nd input textbox", "enter "16" into the 3rd
textbox", "Check the 1st radio button".

An ordinal followed (within three words) by a word for a kind of control — text box, checkbox, radio button,
button, link — picks that control among the visible controls of its kind in page order (``last``: the last one).
What is done to it follows from the kind: a check box or radio button is ticked, a text box gets the value the
task quotes in the same clause (else it is clicked: focused), a button or link is clicked. Kinds a reading step
reads from ("the 2nd text area", "the 3rd word") are ``insta.reading``'s, not these.
"""

from __future__ import annotations

import re

from scrapesmith.dom import HtmlElement
from scrapesmith.insta.reading import ORDINAL_WORDS
from scrapesmith.insta.views import Action, ActionCandidate, Element

_ORDINAL = re.compile(r"\b(?:(\d+)(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
                      r"|last))((?:\s+[\w-]+){1,3})", re.IGNORECASE)
#: Words for a kind of control, and the element roles of that kind (checked in this order: "radio button" is a radio).
KIND_WORDS = (("radio", ("radio",)), ("checkbox", ("checkbox",)), ("check box", ("checkbox",)),
              ("textbox", ("textbox",)), ("text box", ("textbox",)), ("text field", ("textbox",)),
              ("input", ("textbox",)), ("field", ("textbox",)), ("button", ("button",)), ("link", ("link",)))
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")
#: Words for an item of a list of results; such an ordinal may count across the list's pages.
RESULT_WORDS = ("result", "item", "entry", "listing", "hit")
_PAGE_NUMBER = re.compile(r"^\d{1,3}$")
#: An ordinal action outranks the grounding's own picks of the same control (a named value's best is 3.5–4.5).
SCORE = 4.6


def _kind(words: str) -> tuple[str, tuple[str, ...]] | None:
    low = " ".join(words.casefold().split())
    for word, roles in KIND_WORDS:
        if re.search(rf"\b{word}(?:e?s)?\b", low):
            return word, roles
    return None


def _page_order(root: HtmlElement | None) -> dict[int, int]:
    if root is None:
        return {}
    order = {}
    for index, node in enumerate(root.iter()):
        ident = node.get("data-ss-id") if isinstance(node.tag, str) else None
        if ident and ident.isdigit():
            order[int(ident)] = index
    return order


def _clause_value(task: str, at: int) -> str | None:
    """The value the task quotes in the clause that holds position ``at`` (between commas, "and", "then")."""
    start = max(task.rfind(",", 0, at), task.lower().rfind(" and ", 0, at), task.lower().rfind(" then ", 0, at))
    ends = [i for i in (task.find(",", at), task.lower().find(" and ", at), task.lower().find(" then ", at)) if i >= 0]
    clause = task[start + 1: min(ends) if ends else len(task)]
    quoted = [next(g for g in match.groups() if g is not None) for match in _QUOTED.finditer(clause)]
    return quoted[0] if len(quoted) == 1 else None


def _record(node: HtmlElement, depth: int = 4) -> HtmlElement | None:
    """The nearest ancestor-or-self with a sibling of the same tag and class (a row of a list, classless or not)."""
    for _ in range(depth):
        parent = node.getparent()
        if parent is None:
            return None
        if sum(1 for s in parent if s.tag == node.tag and s.get("class") == node.get("class")) > 1:
            return node
        node = parent
    return None


def _nth_result(place: int, phrase: str, elements: list[Element], root: HtmlElement | None,
                order: dict[int, int]) -> ActionCandidate | None:
    """"the 5th search result": the links of the page's list of results (one per row of a repeated row, not page
    numbers) counted across pages — on this page, the link; on another, the page number that shows it (the
    current page: the number marked active or current, else 1)."""
    if root is None or place < 1:
        return None
    nodes = {int(n.get("data-ss-id")): n for n in root.iter() if isinstance(n.tag, str)
             and (n.get("data-ss-id") or "").isdigit()}
    links = [e for e in elements if e.role == "link" and e.id in nodes and e.shown]
    pages = [e for e in links if _PAGE_NUMBER.match(e.name.strip())]
    groups: dict[str, list[Element]] = {}
    for element in links:
        record = _record(nodes[element.id])
        if element in pages or record is None or not any(ch.isalpha() for ch in element.name):
            continue
        groups.setdefault(str(record.getparent().get("data-ss-id")), []).append(element)
    rows = max(groups.values(), key=len, default=[])
    if len(rows) < 2:
        return None
    rows.sort(key=lambda e: order.get(e.id, e.id))
    current = next((int(e.name) for e in pages if _marked_current(nodes[e.id])), 1)
    first = (current - 1) * len(rows) + 1
    if first <= place < first + len(rows):
        target = rows[place - first]
        return ActionCandidate(id="", action=Action(action_key="click", target_element_id=target.id),
                               text=f'click [id: {target.id}] "{target.name}", the {phrase}', score=SCORE,
                               grounded=[phrase], element=target)
    wanted = (place - 1) // len(rows) + 1
    page = next((e for e in pages if int(e.name) == wanted), None)
    if page is None:
        return None
    return ActionCandidate(id="", action=Action(action_key="click", target_element_id=page.id),
                           text=f'click [id: {page.id}] page "{page.name}": it shows the {phrase}', score=SCORE,
                           grounded=[f"page {wanted} of the results"], element=page)


def _marked_current(node: HtmlElement) -> bool:
    for item in (node, node.getparent()):
        if item is not None and ("active" in (item.get("class") or "").split() or item.get("aria-current")):
            return True
    return False


def ordinal_candidates(task: str, elements: list[Element], root: HtmlElement | None) -> list[ActionCandidate]:
    """One action per ordinal the task gives a kind of control: on the N-th visible control of that kind."""
    order = _page_order(root)
    out = []
    for match in _ORDINAL.finditer(task):
        kind = _kind(match.group(3))
        if kind is None:
            said = match.group(3).casefold().split()
            if any(word.removesuffix("s") in RESULT_WORDS for word in said):
                place = int(match.group(1)) if match.group(1) else ORDINAL_WORDS[match.group(2).casefold()]
                found = _nth_result(place, f"{match.group(0).split()[0]} result", elements, root, order)
                out += [found] if found is not None else []
            continue
        word, roles = kind
        place = int(match.group(1)) if match.group(1) else ORDINAL_WORDS[match.group(2).casefold()]
        of_kind = sorted((e for e in elements if e.role in roles and e.shown), key=lambda e: order.get(e.id, e.id))
        if place == 0 or abs(place) > len(of_kind):
            continue
        target = of_kind[place - 1] if place > 0 else of_kind[place]
        phrase = f"{match.group(0).split()[0]} {word}"
        # the plain words the by-name candidates ground ("radio", the quoted value) count as acted on with it, so
        # no other control of the kind is taken for them afterwards
        also = [target.name] if target.name else []
        if roles == ("checkbox",) or roles == ("radio",):
            if target.checked:
                continue
            action = Action(action_key="set_checked", action_kwargs={"checked": True}, target_element_id=target.id)
            text = f"check [id: {target.id}], the {phrase}"
        elif roles == ("textbox",) and (value := _clause_value(task, match.start())) is not None:
            if (target.value or "") == value:
                continue
            action = Action(action_key="fill", action_kwargs={"value": value}, target_element_id=target.id)
            text = f'fill [id: {target.id}], the {phrase}, with "{value}"'
            also = [value]
        else:
            action = Action(action_key="click", target_element_id=target.id)
            text = f"click [id: {target.id}], the {phrase}"
        out.append(ActionCandidate(id="", action=action, text=text, score=SCORE, grounded=[phrase, *also], element=target))
    return out


__all__ = ["ordinal_candidates"]
