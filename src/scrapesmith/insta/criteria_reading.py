"""How the evidence judge reads a criterion and the action log (``insta.verify`` matches one to the other).

A criterion is read as a verb — what kind of action it asks for (type, choose, click, hover, uncheck; a
clause without a verb continues the previous one: "Select A, B and C") — and what it names: its quoted
values, else its names (a capital or a digit), else its content words; with nothing named, the element
kind ("Click the button"). The action log is read as the trajectory's successful targeted actions, minus
those a later action undid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrapesmith.dom import normalize_text
from scrapesmith.insta.candidates import STOPWORDS, quoted_values
from scrapesmith.insta.criteria_words import (
    CHOOSE_VERBS,
    CLICK_VERBS,
    COUNT_WORDS,
    ELEMENT_NOUNS,
    FILLER,
    FOCUS_VERBS,
    HOVER_VERBS,
    REACH_VERBS,
    READ_VERBS,
    SCROLL_VERBS,
    SEND_VERBS,
    TYPE_VERBS,
    UNCHECK_VERBS,
    described,
)
from scrapesmith.insta.values import task_values
from scrapesmith.insta.views import Element, Trajectory

WORD = re.compile(r"\w+", re.UNICODE)

_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)$", re.IGNORECASE)


def normalized(text: str | None) -> str:
    """The text with its spaces normalised, case folded (``None`` reads as empty)."""
    return normalize_text(text or "").casefold()


def word_tokens(text: str) -> list[str]:
    """The casefolded words of the text; a text of no word characters is one token, itself."""
    return [word.casefold() for word in WORD.findall(text)] or [normalized(text)]


def word_stem(word: str) -> str:
    """The word casefolded without a plural ending ("buttons", "boxes" -> "button", "box")."""
    word = word.casefold()
    for suffix in ("es", "s"):
        if len(word) > 3 + len(suffix) and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


@dataclass
class Act:
    """One successful action on an element, from a candidate-policy step."""

    index: int
    kind: str  # click, fill, select_option, set_checked, uncheck, hover
    element: Element
    value: str | None = None
    page: str = ""  # the page as the step saw it, before acting (what a value typed from the page was read off)

    def words(self) -> set[str]:
        """The stems of everything the element shows: name, label, hint, type, role, row; and a typed value."""
        e = self.element
        text = " ".join([e.name, e.label, e.text, e.hint, e.input_type or "", e.role, e.context, e.value or "",
                         self.value or ""])
        return {word_stem(word) for word in WORD.findall(text)}

    def shows_handle(self, handle: str) -> bool:
        """``@at`` is on the element or its row with its sign, as a whole handle (not ``@ut``, not the word "at")."""
        e = self.element
        text = " ".join([e.name, e.label, e.text, e.hint, e.context, e.value or ""])
        return re.search(rf"(?<![\w@#]){re.escape(handle)}(?!\w)", text, re.IGNORECASE) is not None


def acts_of(trajectory: Trajectory) -> list[Act]:
    """The trajectory's successful targeted actions whose element the step recorded, minus those a later
    action undid (the same field retyped, the same box unticked, another option chosen)."""
    acts: list[Act] = []
    for index, step in enumerate(trajectory.steps):
        action = step.action
        if action is None or step.error or step.target is None or action.target_element_id is None:
            continue
        kind, value = action.action_key, None
        if kind in ("fill", "read"):
            value = str(action.action_kwargs.get("value", ""))
        elif kind == "scroll":
            value = str(action.action_kwargs.get("to", ""))
        elif kind == "select_option":
            value = str(action.action_kwargs.get("label", ""))
        elif kind == "set_checked" and not action.action_kwargs.get("checked", True):
            kind = "uncheck"
        acts.append(Act(index=index, kind=kind, element=step.target, value=value, page=step.observation))
    kept = []
    for number, act in enumerate(acts):
        later = [other for other in acts[number + 1:] if other.element.id == act.element.id]
        if act.kind in ("fill", "select_option") and any(o.kind == act.kind and o.value != act.value for o in later):
            continue
        if act.kind == "set_checked" and any(o.kind == "uncheck" for o in later):
            continue
        kept.append(act)
    return kept


@dataclass
class Reading:
    """What a criterion asks: the kind of action, the values it names (``exact``: quoted), the element kinds
    it names, and the other words that must show on the element acted on."""

    verb: str | None
    terms: list[str]
    exact: bool
    named: bool  # the terms are names (a capital, a digit, a handle): something specific to find
    nouns: list[str]
    qualifiers: list[str]
    count: str | None
    ordinals: list[str]
    state: str | None = None  # "expanded"/"collapsed": a criterion about a section's state ("Expand the section")
    values: list[str] = field(default_factory=list)  # dates, times, numbers to set: each one field's value
    handles: list[str] = field(default_factory=list)  # "@at", "#tag": must show with their sign, whatever the word
    text: str = ""  # the clause itself (a label it names for a value the page gives: ``insta.page_values``)


#: Verbs that ask for a live state the observation shows (``(expanded)``/``(collapsed)``), not for an action.
STATE_VERBS = {"expand": "expanded", "collapse": "collapsed"}


def verb_kind(word: str) -> str | None:
    """The kind of action a verb asks for (``type``, ``choose``, ``click``, …), or None for no known verb."""
    for kind, verbs in (("type", TYPE_VERBS), ("choose", CHOOSE_VERBS), ("click", CLICK_VERBS),
                        ("uncheck", UNCHECK_VERBS), ("hover", HOVER_VERBS), ("focus", FOCUS_VERBS),
                        ("read", READ_VERBS), ("scroll", SCROLL_VERBS), ("send", SEND_VERBS), ("reach", REACH_VERBS)):
        if word in verbs:
            return kind
    return None


def read_criterion(criterion: str, previous_verb: str | None = None) -> Reading:
    """What the criterion asks; a clause without a verb takes ``previous_verb`` (the clause before it)."""
    reading = _read_criterion(criterion, previous_verb)
    reading.text = criterion
    return reading


def _read_criterion(criterion: str, previous_verb: str | None) -> Reading:
    quoted = quoted_values(criterion)
    unquoted = re.sub(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<![\w])'[^']*'(?![\w])", " ", criterion)
    first = WORD.findall(unquoted[:40].casefold())[:1]
    setting = bool(first) and (verb_kind(first[0]) or previous_verb) in ("type", "choose")
    values = [v for v in task_values(unquoted) if v.kind != "number" or setting] if not quoted else []
    for value in sorted(values, key=lambda v: -v.at):
        unquoted = unquoted[:value.at] + " " + unquoted[value.at + len(value.text):]
    words = WORD.findall(unquoted)
    verb = verb_kind(words[0].casefold()) if words else None
    rest = words[1:] if verb else words
    submit = [words[0]] if verb and words[0].casefold() == "submit" else []  # "submit when done": a submit control
    state = STATE_VERBS.get(words[0].casefold()) if verb and not quoted else None
    verb = verb or previous_verb
    ordinals = [w for w in rest if _ORDINAL.match(w)]
    description, number = described(criterion)
    count = next((w.casefold() for w in rest if w.casefold() in COUNT_WORDS), number)
    # a handle is a name whatever its word ("by @at": "at" is no stopword there)
    signed = [h.casefold() for h in re.findall(r"(?<![\w])[@#]\w+", unquoted)]
    handles = {h[1:] for h in signed}
    words_left = [w for w in rest if w.casefold() in handles or (
        w.casefold() not in STOPWORDS and w.casefold() not in FILLER and w.casefold() not in COUNT_WORDS
        and not _ORDINAL.match(w) and w != number)]
    # a verb later in the clause ("use the textbox *to enter*") is no requirement of its own, but it can be
    # the name of what to click ("click Submit", "press submit")
    content = [w for w in words_left if verb_kind(w.casefold()) is None]
    verb_names = [w for w in words_left if verb_kind(w.casefold()) is not None]
    nouns = [w for w in content if word_stem(w) in ELEMENT_NOUNS or w.casefold() in ELEMENT_NOUNS]
    content = [w for w in content if w not in nouns]
    if any(w.casefold() not in description for w in nouns):  # "the button in the dialog *box* labeled "x""
        nouns = [w for w in nouns if w.casefold() not in description]
    described_only = [w for w in content if w.casefold() not in description]  # once a name identifies it
    if quoted:
        return Reading(verb, quoted, True, True, nouns, described_only, count, ordinals, state, handles=signed)
    if values:
        return Reading(verb, [], True, True, nouns, [], count, ordinals, state, [v.text for v in values])
    names = [w for w in content + verb_names if any(c.isupper() or c.isdigit() for c in w) or w.casefold() in handles]
    if names:
        return Reading(verb, names, False, True, nouns, [w for w in described_only if w not in names], count,
                       ordinals, state, handles=signed)
    return Reading(verb, content or verb_names or ([] if nouns else submit), False, False, nouns, [], count,
                   ordinals, state)
