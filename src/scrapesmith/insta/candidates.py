"""Candidate actions: the program grounds the task in the page's elements, the model only chooses.

:func:`ground_task` reads what the task names: quoted values (``"Kasie"``, ``'Design'``) and any element
text, label or option the task mentions as whole words. :func:`candidate_actions` turns every actionable
element (``insta.elements``) into the actions of the seed's action set that make sense for it: click a
link, button or named text, fill a text field with a value from the task, select an existing option, tick
or untick a box, hover, scroll, go back, stop with an answer. Each candidate is scored by how well it
matches the task, actions already done (the field holds the value, the option is chosen, the box is
ticked) are left out, and the best ``limit`` are numbered ``c1``, ``c2``, …: the model answers with one of
those ids under a JSON-schema enum, so an action on an element that does not exist cannot be chosen.
Free text is offered only where the task needs a value no element holds: the answer of ``stop``, and a
field to fill when the task quotes no value to type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrapesmith.dom import normalize_text
from scrapesmith.insta.fields import (
    guess_candidates,
    name_candidates,
    property_candidates,
    read_value_candidates,
    scroll_candidates,
    value_candidates,
)
from scrapesmith.insta.values import task_values
from scrapesmith.insta.views import Action, ActionCandidate, Element

MAX_CANDIDATES = 30
MAX_OPTIONS = 12
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<![\w])'([^']+)'(?![\w])")
_WORD = re.compile(r"\w+", re.UNICODE)
_EVERY_FIELD = re.compile(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:fields?|text ?box(?:es)?|inputs?|boxes)\b")
_TYPING = re.compile(r"\b(?:type|enter|fill|write|input|answer)\b")
#: Words too common to ground anything on their own (an element called "the" or "and" names nothing).
STOPWORDS = frozenset({
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "from", "by", "with", "into",
    "onto", "is", "are", "be", "it", "its", "this", "that", "then", "than", "as", "if", "when", "all",
    "any", "some", "no", "not", "your", "you", "me", "my", "i", "we", "our", "them", "they", "he",
    "she", "his", "her", "click", "select", "enter", "type", "press", "choose", "find", "open", "go",
    "page",
})


#: What common icons show, and the words a task uses for what they do.
ICON_WORDS: dict[str, tuple[str, ...]] = {
    "trash": ("delete", "remove", "discard"), "bin": ("delete", "remove"), "star": ("important", "favorite"),
    "heart": ("like", "favorite"), "pencil": ("edit",), "magnifier": ("search",), "cross": ("close",),
    "plus": ("add",), "gear": ("settings",), "cog": ("settings",),
}


def _norm(text: str) -> str:
    return normalize_text(text).casefold()


def quoted_values(task: str) -> list[str]:
    """The values the task quotes, in order, without duplicates."""
    values: dict[str, None] = {}
    for match in _QUOTED.finditer(task):
        value = normalize_text(next(group for group in match.groups() if group is not None))
        if value:
            values.setdefault(value, None)
    return list(values)


def mentions(task: str, phrase: str) -> bool:
    """``phrase`` occurs in ``task`` as whole words (case-insensitive) and is not only stopwords."""
    words = [w for w in _WORD.findall(_norm(phrase))]
    if not words or all(word in STOPWORDS for word in words) or len("".join(words)) < 2:
        return False
    pattern = r"(?<!\w)" + r"\W+".join(re.escape(word) for word in words) + r"(?!\w)"
    return re.search(pattern, _norm(task)) is not None


@dataclass
class Grounding:
    """What the task names: quoted values, the values to type, and per element the phrases it matched."""

    task: str
    quoted: list[str] = field(default_factory=list)
    to_type: list[str] = field(default_factory=list)

    def match(self, phrase: str) -> float:
        """How strongly the task names ``phrase``: 0 when it does not; else 2, plus 0.5 for a quoted value,
        plus up to 1 for coming early in the task (tasks list their steps in order)."""
        if not phrase:
            return 0.0
        key = _norm(phrase)
        if any(_norm(value) == key for value in self.quoted):
            return 2.5 + self.order(phrase)
        return 2.0 + self.order(phrase) if len(key) <= 80 and mentions(self.named, phrase) else 0.0

    def said_as(self, name: str) -> str | None:
        """The task's word for what an icon ``name`` shows (:data:`ICON_WORDS`: "delete" for a trash can)."""
        for word in _WORD.findall(_norm(name)):
            for said in ICON_WORDS.get(word, ()):
                if mentions(self.named, said):
                    return said
        return None

    @property
    def named(self) -> str:
        """The task without its dates and times: "12" in "12/17/2016" names no element "12" (a calendar's day)."""
        text = self.task
        for value in task_values(self.task):
            if value.kind != "number":
                text = text.replace(value.text, " ")
        return text

    def order(self, phrase: str) -> float:
        """1 for a phrase at the start of the task, falling to 0 at its end."""
        task = _norm(self.task)
        at = task.find(_norm(phrase))
        return 1.0 - at / max(1, len(task)) if at >= 0 else 0.0

    def typing(self) -> float:
        """Score of typing a value the model writes: 2 plus the order bonus of the task's first typing verb
        ("type your answer ... press submit": typing comes first), 0.5 when the task asks for no typing."""
        match = _TYPING.search(_norm(self.task))
        return 2.0 + 1.0 - match.start() / max(1, len(self.task)) if match else 0.5

    def context_bonus(self, context: str, name: str) -> float:
        """Up to 0.9 for the task's own words (other than the element's name) in its row or card: the
        "Retweet" of the post by @beaulah, not of the others."""
        own = set(_WORD.findall(_norm(name)))
        words = {w for w in _WORD.findall(_norm(self.task)) if w not in STOPWORDS and len(w) > 2} - own
        return min(0.9, 0.3 * len(words & set(_WORD.findall(_norm(context)))))

    @property
    def every_field(self) -> bool:
        """The task types its value into several fields ("into both text fields", "in all the boxes")."""
        return _EVERY_FIELD.search(_norm(self.task)) is not None

    def restates(self, text: str) -> bool:
        """``text`` is the task itself, or most of it (a page that displays the instruction)."""
        words, task = set(_WORD.findall(_norm(text))), set(_WORD.findall(_norm(self.task)))
        return bool(task) and len(words & task) >= 0.6 * len(task)

    def near(self, value: str, words: str) -> bool:
        """Some word of ``words`` (a field's label, id, name) occurs just before ``value`` in the task, after
        the previous quoted value (``username "a" and the password "b"``: "password" is near "b" only)."""
        task = _norm(self.task)
        at = task.find(_norm(value))
        if at < 0:
            return False
        start = max(0, at - 40)
        for other in self.quoted:
            end = task.find(_norm(other)) + len(_norm(other))
            if _norm(other) != _norm(value) and start < end <= at:
                start = end
        before = set(_WORD.findall(task[start:at]))
        return any(word in before for word in _WORD.findall(_norm(words)) if word not in STOPWORDS)


def ground_task(task: str, elements: list[Element]) -> Grounding:
    """Quoted values; those that are not the name of a clickable element or an option are values to type."""
    quoted = quoted_values(task)
    names = {_norm(element.name) for element in elements if element.role not in ("textbox",)}
    names |= {_norm(option) for element in elements for option in element.options}
    return Grounding(task=task, quoted=quoted, to_type=[value for value in quoted if _norm(value) not in names])


def describe_element(element: Element) -> str:
    """``[id: 7] "Submit" button`` with the live state: what the candidate list shows of an element."""
    name = element.label if element.role in ("textbox", "select") else (element.name or element.label)
    parts = [f'[id: {element.id}] "{name}" {element.role}' if name else f"[id: {element.id}] {element.role}"]
    if element.role == "textbox":
        shown = element.label or element.input_type or ""
        parts = [f'[id: {element.id}] {shown + " " if shown else ""}text field'.replace("  ", " ")]
        parts.append(f'(now "{element.value}")' if element.value else "(empty)")
    elif element.role == "select":
        parts.append(f'(now "{element.value}")')
    elif element.checked is not None:
        parts.append("(checked)" if element.checked else "(unchecked)")
    if element.expanded:
        parts.append(f"({element.expanded})")
    if element.context:
        parts.append(f'in "{element.context}"')
    return " ".join(parts)


def _add(out: list[ActionCandidate], action: Action, text: str, score: float, grounded: list[str] | None = None,
         free: bool = False) -> None:
    out.append(ActionCandidate(id="", action=action, text=text, score=score, grounded=grounded or [], free=free))


def _element_candidates(element: Element, grounding: Grounding, out: list[ActionCandidate], hover: bool,
                        typed: set[str]) -> None:
    label = describe_element(element)
    target = element.id
    penalty = 0.0 if element.shown else -0.25
    if element.role == "textbox":
        holds_task_value = element.value is not None and (_norm(element.value) in {_norm(v) for v in typed} or (
            len(grounding.to_type) > 1 and all(_norm(v) in _norm(element.value) for v in grounding.to_type)))
        for value in grounding.to_type:
            if holds_task_value:
                continue  # this field holds a value of the task already
            near = grounding.near(value, f"{element.label} {element.hint} {element.input_type or ''}")
            score = 2.5 + grounding.order(value) + (1.0 if near else 0.0)
            if value in typed and not grounding.every_field:
                score -= 2.0  # another field holds it: offered, behind the values still to type
            _add(out, Action(action_key="fill", action_kwargs={"value": value}, target_element_id=target),
                 f'fill {label} with "{value}"', score + penalty, [value])
        if not grounding.to_type and not element.value:
            _add(out, Action(action_key="fill", action_kwargs={"value": ""}, target_element_id=target),
                 f"fill {label} with text you write: the value the task asks for, worked out or read on the page, "
                 "not the question itself (put it in \"value\")", grounding.typing() + penalty, free=True)
        _add(out, Action(action_key="click", target_element_id=target), f"click {label} (focus it)",
             0.2 + grounding.match(element.label) / 4 + penalty)
        return
    if element.role == "select":
        scored = [(grounding.match(option), option) for option in element.options if option != element.value]
        scored.sort(key=lambda pair: -pair[0])
        for score, option in scored[:MAX_OPTIONS]:
            _add(out, Action(action_key="select_option", action_kwargs={"label": option}, target_element_id=target),
                 f'select "{option}" in {label}', score + 0.1 + penalty, [option] if score else [])
        return
    name_score = max(grounding.match(element.name), grounding.match(element.label))
    grounded = [element.name] if name_score else []
    if element.role == "option" and not name_score and grounding.quoted and \
            all(_norm(value) in _norm(element.name) for value in grounding.quoted):
        name_score, grounded = 3.5, [f"(suggestion) {element.name}"]  # holds every value the task quotes
    if not name_score and element.role in ("icon", "clickable", "button") and len(element.name.split()) <= 2:
        said = grounding.said_as(element.name)  # an icon named "trash" for a task that says "delete"
        if said:
            name_score, grounded = grounding.match(said) - 0.25, [said]
    if name_score and element.context:
        name_score += grounding.context_bonus(element.context, element.name)
    elif not name_score and len(element.name.split()) > 2:
        name_score = grounding.context_bonus(element.name, "")  # a row or card holding the task's words
    if element.role in ("checkbox", "radio"):
        if not element.checked:
            _add(out, Action(action_key="set_checked", action_kwargs={"checked": True}, target_element_id=target),
                 f"check {label}", name_score + 0.1 + penalty, grounded)
        elif element.role == "checkbox":
            _add(out, Action(action_key="set_checked", action_kwargs={"checked": False}, target_element_id=target),
                 f"uncheck {label}", (0.3 if not name_score else -1.0) + penalty)
        return
    base = {"button": 0.35, "link": 0.3, "tab": 0.3, "menuitem": 0.3, "summary": 0.3, "treeitem": 0.3,
            "option": 0.3}.get(element.role, 0.1)
    if element.role in ("text", "icon"):
        base = 0.0
    _add(out, Action(action_key="click", target_element_id=target), f"click {label}",
         name_score + base + penalty, grounded)
    if hover and name_score:
        _add(out, Action(action_key="hover", target_element_id=target), f"hover over {label}",
             name_score - 0.5 + penalty, grounded)


def candidate_actions(task: str, elements: list[Element], *, can_go_back: bool = False, truncated: bool = False,
                      limit: int = MAX_CANDIDATES, read: list[tuple[str, int | None]] | None = None,
                      page: str | None = None, seen: list[str] | None = None) -> list[ActionCandidate]:
    """Every grounded action for ``elements``, best first, numbered ``c1`` … (at most ``limit``); ``read``: the
    values read earlier in the episode, with the element each came from; ``page``: the page's text without the
    task, where names the task gives to type are not; ``seen``: the pages of the steps so far (``insta.fields``)."""
    grounding = ground_task(task, elements)
    hover = mentions(task, "hover") or "hover" in _norm(task)
    out: list[ActionCandidate] = []
    typed = {value for value in grounding.to_type for element in elements
             if element.role == "textbox" and element.value is not None and _norm(element.value) == _norm(value)}
    for element in elements:
        first = len(out)
        _element_candidates(element, grounding, out, hover, typed)
        for candidate in out[first:]:
            candidate.element = element
    # plain text naming a phrase an interactive element already grounds (a table cell "Design" next to the
    # option "Design") is content, not a target
    plain = {element.id for element in elements if element.role in ("text", "icon")}
    covered = {_norm(phrase) for c in out for phrase in c.grounded if c.action.target_element_id not in plain}
    out = [c for c in out if not (c.action.target_element_id in plain and c.grounded
                                  and _norm(c.grounded[0]) in covered)]
    guesses = guess_candidates(task, elements, [*(seen or []), page or ""])
    searched = {c.action.target_element_id for c in guesses}  # a bounded search replaces the bounds as values
    out += [c for c in value_candidates(task, elements, 1.0) if c.action.target_element_id not in searched] + guesses
    out += scroll_candidates(task, elements, 1.0) + \
        read_value_candidates(read or [], elements) + (name_candidates(task, elements, page) if page is not None else [])
    decided = property_candidates(task, elements)  # what arithmetic decides replaces the by-name candidates
    out = [c for c in out if c.action.target_element_id not in {d.action.target_element_id for d in decided}] + decided
    _add(out, Action(action_key="scroll", action_kwargs={"delta_x": 0, "delta_y": 600}), "scroll down",
         0.05 if truncated else -0.5)
    _add(out, Action(action_key="scroll", action_kwargs={"delta_x": 0, "delta_y": -600}), "scroll up", -0.6)
    if can_go_back:
        _add(out, Action(action_key="go_back"), "go back to the previous page", -0.4)
    ranked = sorted(out, key=lambda candidate: -candidate.score)[: max(1, limit - 1)]
    ranked.append(ActionCandidate(id="", action=Action(action_key="stop", action_kwargs={"answer": ""}),
                            text="stop: the task is done (put any answer the task asks for in \"value\")",
                            score=0.0, free=True))
    return renumber(ranked)


def renumber(candidates: list[ActionCandidate]) -> list[ActionCandidate]:
    """Number ``candidates`` ``c1``, ``c2``, … in their order (the ids the model answers with)."""
    for number, candidate in enumerate(candidates, start=1):
        candidate.id = f"c{number}"
    return candidates


def action_signature(action: Action | None) -> str:
    """What makes two actions the same (the heuristic chooser never repeats one)."""
    if action is None:
        return ""
    kwargs = {key: value for key, value in sorted(action.action_kwargs.items()) if key != "answer"}
    return f"{action.action_key}:{action.target_element_id}:{kwargs}"
