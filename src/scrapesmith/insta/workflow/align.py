"""Which words of the task became which typed value or chosen element, and how a new task binds them again.

:func:`find_span` finds a value an episode used in its task: a quoted phrase, a date, a time or a number
(``insta.values``: "05/12/2016" is the date a picker wrote as "2016-05-12"), else the same words anywhere in the task.
A workflow's **template** is the task with each parameter's span as a slot ``{p1}``; merging several episodes of a
family aligns their tasks word by word (``difflib``) and turns words that differ and that no step used into
``{*}``. A new task binds by matching the template (:func:`bind_template`), else — for a workflow named outright —
by kind and ordinal (:func:`bind_by_kind`: the 2nd quoted phrase, the 1st date). Nothing here names a task.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from scrapesmith.dom import normalize_text
from scrapesmith.insta.values import same_date_or_value, task_values
from scrapesmith.insta.workflow.views import Parameter

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<![\w])'([^']+)'(?![\w])")
_TOKEN = re.compile(r"\{\*\}|\{p\d+\}|\w+|[^\w\s]")
_SLOT = re.compile(r"^\{(p\d+|\*)\}$")
_NAME = re.compile(r"(?<![\w@#])[@#]?\w*[A-Z0-9@#]\w*")
#: What separates the items of a list a task enumerates ("A, B and C").
ITEM_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
WILDCARD = "{*}"


@dataclass(frozen=True)
class Span:
    """Where a value stands in a task: its text as written there, its offsets and its kind."""

    text: str
    start: int
    end: int
    kind: str


def _norm(text: str) -> str:
    return normalize_text(text).casefold()


def quoted_spans(task: str) -> list[Span]:
    spans = []
    for match in _QUOTED.finditer(task):
        group = next(index for index in range(1, 5) if match.group(index) is not None)
        spans.append(Span(match.group(group), match.start(group), match.end(group), "quoted"))
    return spans


def spans_of_kind(task: str, kind: str) -> list[Span]:
    """Every span of ``kind`` in ``task``, in order (what :func:`bind_by_kind` counts ordinals in)."""
    if kind == "quoted":
        return quoted_spans(task)
    if kind in ("date", "time", "number"):
        return [Span(value.text, value.at, value.at + len(value.text), value.kind) for value in task_values(task)
                if value.kind == kind]
    if kind == "name":
        quoted = quoted_spans(task)
        return [Span(m.group(0), m.start(), m.end(), "name") for m in _NAME.finditer(task)
                if m.start() > 0 and not any(q.start <= m.start() < q.end for q in quoted)]
    return []


def find_span(value: str, task: str) -> Span | None:
    """The span of ``task`` that gave ``value``: a quoted phrase equal to it, a date/time/number equal to it, else
    its words as whole words (case aside); None when the task does not hold it."""
    wanted = _norm(value)
    if not wanted:
        return None
    for span in quoted_spans(task):
        if _norm(span.text) == wanted:
            return span
    for found in task_values(task):
        if same_date_or_value(value, found.text):
            return Span(found.text, found.at, found.at + len(found.text), found.kind)
    words = re.findall(r"\w+", wanted)
    if not words:
        return None
    handle = wanted[0] if wanted[0] in "@#" else ""  # "@enola" is the task's "@enola", not its "enola"
    pattern = r"(?<![\w@#])" + re.escape(handle) if handle else r"(?<!\w)"
    pattern += r"\W+".join(re.escape(word) for word in words) + r"(?!\w)"
    match = re.search(pattern, task, re.IGNORECASE)
    if match is None:
        return None
    kind = "name" if _NAME.fullmatch(match.group(0)) and match.start() > 0 else "words"
    return Span(match.group(0), match.start(), match.end(), kind)


def ordinal_of(span: Span, task: str) -> int:
    """The 1-based position of ``span`` among the task's spans of its kind (1 when it is not counted)."""
    same = spans_of_kind(task, span.kind)
    return next((number for number, other in enumerate(same, start=1) if other.start == span.start), 1)


def template_tokens(task: str, slots: dict[str, Span]) -> list[str]:
    """``task`` as tokens, each slot's span replaced by one ``{name}`` token."""
    tokens: list[str] = []
    at = 0
    for name, span in sorted(slots.items(), key=lambda item: item[1].start):
        tokens += _TOKEN.findall(task[at:span.start]) + [f"{{{name}}}"]
        at = span.end
    return tokens + _TOKEN.findall(task[at:])


def merge_templates(token_lists: Iterable[list[str]]) -> list[str]:
    """One template for several episodes' tokens: what all share stays, what differs becomes ``{*}``."""
    lists = list(token_lists)
    merged = lists[0]
    for other in lists[1:]:
        out: list[str] = []
        for tag, a0, a1, _, _ in SequenceMatcher(None, merged, other, autojunk=False).get_opcodes():
            if tag == "equal":
                out += merged[a0:a1]
            elif not out or out[-1] != WILDCARD:
                out.append(WILDCARD)
        merged = out
    return merged


def render_template(tokens: list[str]) -> str:
    """Tokens as one readable line: a space between words, none before closing punctuation or inside quotes."""
    text, open_quote, after_open = "", False, False
    for token in tokens:
        quote = token in ('"', "'")
        glued = after_open or (quote and open_quote) or re.match(r"^[.,;:!?)\]]$", token) or text.endswith(("(", "["))
        if text and not glued:
            text += " "
        text += token
        after_open = quote and not open_quote
        open_quote = open_quote != quote
    return text


def template_regex(template: str) -> re.Pattern[str]:
    """The template as an anchored pattern: literal tokens with any whitespace between, ``{pN}`` a named group,
    ``{*}`` any words."""
    parts = []
    for token in _TOKEN.findall(template):
        slot = _SLOT.match(token)
        if slot is None:
            parts.append(re.escape(token))
        elif slot.group(1) == "*":
            parts.append(r".+?")
        else:
            parts.append(f"(?P<{slot.group(1)}>.+?)")
    return re.compile(r"\s*" + r"\s*".join(parts) + r"\s*", re.IGNORECASE | re.DOTALL)


Binding = dict[str, str | list[str]]


def items_of(text: str) -> list[str]:
    return [item.strip(" \"'“”") for item in ITEM_SEPARATOR.split(text.strip()) if item.strip(" \"'“”")]


def bind_template(template: str, parameters: list[Parameter], task: str) -> Binding | None:
    """The parameters' values in ``task`` when it matches the template, else None."""
    match = template_regex(template).fullmatch(normalize_text(task))
    if match is None:
        return None
    found = match.groupdict()
    binding: Binding = {}
    for parameter in parameters:
        value = found.get(parameter.name)
        if value is None:
            return None
        binding[parameter.name] = items_of(value) if parameter.items else value.strip()
    return binding


def bind_by_kind(parameters: list[Parameter], task: str) -> tuple[Binding | None, str]:
    """Each parameter as the ``ordinal``-th span of its kind in ``task``; (None, why) when one has none."""
    binding: Binding = {}
    for parameter in parameters:
        spans = spans_of_kind(task, parameter.kind)
        if parameter.kind == "words" or len(spans) < parameter.ordinal:
            examples = ", ".join(map(repr, parameter.examples[:2]))
            return None, (f"the task gives no {ordinal_word(parameter.ordinal)} {parameter.kind} value for "
                          f"{{{parameter.name}}} (e.g. {examples})")
        text = spans[parameter.ordinal - 1].text
        binding[parameter.name] = items_of(text) if parameter.items else text
    return binding, ""


def ordinal_word(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def fill_in(text: str, binding: Binding, item: str | None = None) -> str | None:
    """``text`` with every ``{pN}`` replaced by its bound value (a list parameter by ``item``); None when a
    parameter is unbound."""
    missing = False

    def value(match: re.Match[str]) -> str:
        nonlocal missing
        bound = binding.get(match.group(1))
        if isinstance(bound, list):
            if item is None:
                missing = True
                return ""
            return item
        if bound is None:
            missing = True
            return ""
        return bound

    filled = re.sub(r"\{(p\d+)\}", value, text)
    return None if missing else filled
