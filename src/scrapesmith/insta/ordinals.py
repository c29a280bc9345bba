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


def ordinal_candidates(task: str, elements: list[Element], root: HtmlElement | None) -> list[ActionCandidate]:
    """One action per ordinal the task gives a kind of control: on the N-th visible control of that kind."""
    order = _page_order(root)
    out = []
    for match in _ORDINAL.finditer(task):
        kind = _kind(match.group(3))
        if kind is None:
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
