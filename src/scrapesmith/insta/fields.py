"""Candidates that set a field to a value of a kind, scroll a box to its end, or read a value off the page.

``insta.candidates`` grounds what the task quotes and names. This module adds what it says in other ways:

- a value of a kind (``insta.values``: a date, a time, a number) goes to the fields that take that kind — a
  date field or a read-only field that opens a picker, a time field, a number field, a slider, a spin button
  (``Element.widget``). When the task lists as many values of a kind as the page has such fields ("the
  sliders to [3, 15, 7]"), they pair up in order;
- "scroll the text area to the bottom": the element the task names by kind is scrolled to that end;
- a value read earlier in the episode (``insta.reading``) goes into the field the task puts it in.

Nothing here names a page: only kinds of values, kinds of fields and the task's own words.
"""

from __future__ import annotations

import re

from scrapesmith.dom import normalize_text
from scrapesmith.insta.values import Value, number_range, same_value, task_values
from scrapesmith.insta.views import Action, ActionCandidate, Element

DATE_TYPES = frozenset({"date", "datetime-local", "month", "week"})
_WORD = re.compile(r"\w+")
_SCROLL_TO = re.compile(r"\bscroll\w*\b.*?\b(?:to|at)\s+the\s+(bottom|top|end|beginning|start)\b", re.IGNORECASE)
#: Words a task names a scrollable box by, and what each matches: a tag, or any element that is not a control.
BOX_NOUNS = {"textarea": "textarea", "text area": "textarea", "text box": "textarea", "list": "*", "box": "*",
             "area": "*", "panel": "*", "pane": "*"}


def _words(element: Element) -> set[str]:
    return set(_WORD.findall(f"{element.label} {element.hint} {element.context}".casefold()))


def takes(element: Element, value: Value) -> bool:
    """Whether ``element`` is a field for a value of ``value``'s kind (never a plain text box for a number)."""
    if value.kind == "number":
        return element.widget in ("slider", "spinbutton") or element.input_type in ("number", "range")
    if element.role != "textbox" and element.input_type not in DATE_TYPES | {"time"}:
        return False
    if value.kind == "date":
        return element.input_type in DATE_TYPES or element.readonly or "date" in _words(element) \
            or any("date" in word for word in _words(element))
    return element.input_type == "time" or "time" in _words(element)


def _describe(element: Element) -> str:
    kind = element.widget or (f"{element.input_type} field" if element.input_type not in (None, "text") else "field")
    name = element.label or element.hint
    now = element.value if not element.value or len(element.value) <= 30 else element.value[:27] + "..."
    return f'[id: {element.id}] {kind}{f" {name!r}" if name else ""}' + (f' (now "{now}")' if now else "")


def value_candidates(task: str, elements: list[Element], order: float) -> list[ActionCandidate]:
    """Fill candidates for the task's dates, times and numbers, each on the fields that take its kind; ``order``
    is the task-order bonus of the first value (``Grounding.order``), the rest fall off from it."""
    values = [value for value in task_values(task) if value.kind != "number" or not _is_position(task, value)]
    out: list[ActionCandidate] = []
    for kind in ("date", "time", "number"):
        of_kind = [value for value in values if value.kind == kind]
        fields = [element for element in elements if of_kind and takes(element, of_kind[0])]
        if not of_kind or not fields:
            continue
        paired = len(of_kind) == len(fields) > 1
        for number, value in enumerate(of_kind):
            phrase = value.text if [v.text for v in of_kind].count(value.text) == 1 else \
                f"{value.text} ({number + 1} of {len(of_kind)})"
            bonus = order * (1 - value.at / max(1, len(task)))
            for position, field in enumerate(fields):
                if paired and position != number:
                    continue
                if field.value and same_value(field.value, value.for_field(field.input_type)):
                    continue  # it holds the value already
                shown = value.for_field(field.input_type)
                out.append(ActionCandidate(id="", action=Action(action_key="fill", action_kwargs={"value": shown},
                                                          target_element_id=field.id),
                                     text=f'set {_describe(field)} to "{shown}"', score=3.0 + bonus + paired * 0.5,
                                     grounded=[phrase], element=field))
    return out


def _is_position(task: str, value: Value) -> bool:
    """A number that counts or orders ("1 post", "the 3 boxes") rather than a value to set: followed by a noun
    it counts. Only numbers a field of a number kind can take are offered at all, so this stays narrow."""
    after = task[value.at + len(value.text):].lstrip()
    return bool(re.match(r"(?:of|out of)\b", after))


def scroll_candidates(task: str, elements: list[Element], order: float) -> list[ActionCandidate]:
    """"Scroll the text area to the bottom": scroll each element the task names by kind to that end."""
    match = _SCROLL_TO.search(task)
    if match is None:
        return []
    to = "top" if match.group(1).casefold() in ("top", "beginning", "start") else "bottom"
    text = normalize_text(task).casefold()
    wanted = {tag for noun, tag in BOX_NOUNS.items() if re.search(rf"\b{noun}s?\b", text)}
    out = []
    for element in elements:
        fits = element.tag in wanted or ("*" in wanted and element.role not in ("button", "link", "checkbox", "radio"))
        if not fits:
            continue
        out.append(ActionCandidate(id="", action=Action(action_key="scroll", action_kwargs={"to": to},
                                                  target_element_id=element.id),
                             text=f"scroll {_describe(element)} to the {to}", score=3.0 + order,
                             grounded=[match.group(0)], element=element))
    return out


def read_value_candidates(values: list[tuple[str, int | None]], elements: list[Element]) -> list[ActionCandidate]:
    """Each value read earlier (and the element it came from) into every other empty text field."""
    out = []
    for value, source in values:
        for element in elements:
            if element.role != "textbox" or element.id == source or element.widget or element.readonly:
                continue
            if element.value and same_value(element.value, value):
                continue
            shown = value if len(value) <= 40 else value[:37] + "..."
            out.append(ActionCandidate(id="", action=Action(action_key="fill", action_kwargs={"value": value},
                                                      target_element_id=element.id),
                                 text=f'fill {_describe(element)} with the value read: "{shown}"',
                                 score=3.5 - 0.5 * bool(element.value), grounded=[f"(read) {shown}"],
                                 element=element))
    return out


_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?)\b")


def name_candidates(task: str, elements: list[Element], page: str) -> list[ActionCandidate]:
    """A name the task gives (a capitalised word inside a sentence: "forward that email to Theresita") that the
    page does not show is a value to type: offered for every empty text field, behind quoted values."""
    shown = {word.casefold() for word in _WORD.findall(page)}
    names = list(dict.fromkeys(match.group(1) for match in _NAME.finditer(task)
                               if match.group(1).casefold() not in shown and match.group(1) != "I"))
    out = []
    for name in names:
        order = 1 - task.find(name) / max(1, len(task))
        for element in elements:
            if element.role != "textbox" or element.value or element.readonly or element.widget:
                continue
            out.append(ActionCandidate(id="", action=Action(action_key="fill", action_kwargs={"value": name},
                                                      target_element_id=element.id),
                                 text=f'fill {_describe(element)} with "{name}"', score=2.25 + order,
                                 grounded=[name], element=element))
    return out


#: Properties of a number a program decides (never the model): the word a control shows, and the test.
NUMBER_PROPERTIES = {
    "odd": lambda n: n == int(n) and int(n) % 2 != 0, "even": lambda n: n == int(n) and int(n) % 2 == 0,
    "positive": lambda n: n > 0, "negative": lambda n: n < 0, "zero": lambda n: n == 0,
}


def property_candidates(task: str, elements: list[Element]) -> list[ActionCandidate]:
    """"Mark the numbers as odd or even": a control named by a property of numbers the task names, in a row
    holding one number, is clicked when the number has that property — decided by arithmetic, not a guess."""
    named = {word for word in NUMBER_PROPERTIES if re.search(rf"\b{word}\b", task, re.IGNORECASE)}
    out = []
    for element in elements:
        word = element.name.strip().casefold()
        if word not in named or element.role in ("textbox", "select"):
            continue
        numbers = [float(n) for n in re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", element.context)]
        if len(numbers) != 1:
            continue
        holds = NUMBER_PROPERTIES[word](numbers[0])
        out.append(ActionCandidate(id="", action=Action(action_key="click", target_element_id=element.id),
                             text=f'click [id: {element.id}] "{element.name}" for {numbers[0]:g} '
                                  f"({'it is' if holds else 'it is not'} {word})",
                             score=3.5 if holds else -1.0, grounded=[f"{element.name} ({numbers[0]:g})"] if holds else [],
                             element=element))
    return out


_ABOVE = re.compile(r"\b(?:higher|greater|more|larger|bigger|above|over)\s+than\s+(-?\d+)", re.IGNORECASE)
_BELOW = re.compile(r"\b(?:lower|less|smaller|fewer|below|under)\s+than\s+(-?\d+)", re.IGNORECASE)


def guess_candidates(task: str, elements: list[Element], pages: list[str]) -> list[ActionCandidate]:
    """A number the task bounds ("between 0-9") and the page answers guesses about ("higher than 4"): the
    middle of what the task's bounds and every answer so far (``pages``: what each step saw, then the page
    now) leave open, for each number field — a search the program runs, not the model."""
    undated = task
    for value in task_values(task):
        if value.kind != "number":  # "2016-05-12" states no range
            undated = undated.replace(value.text, " ")
    bounds = number_range(undated)
    fields = [e for e in elements if e.widget in ("slider", "spinbutton") or e.input_type in ("number", "range")
              or (e.role == "textbox" and not e.readonly)]
    if bounds is None or not fields:
        return []
    low, high = bounds
    for page in pages:
        for match in _ABOVE.finditer(page):
            low = max(low, float(match.group(1)) + 1)
        for match in _BELOW.finditer(page):
            high = min(high, float(match.group(1)) - 1)
    if low > high:
        return []
    guess = f"{(low + high) // 2:g}"
    return [ActionCandidate(id="", action=Action(action_key="fill", action_kwargs={"value": guess},
                                           target_element_id=field.id),
                      text=f'set {_describe(field)} to "{guess}" (the middle of {low:g}-{high:g}, still open)',
                      score=3.2, grounded=[f"guess {guess}"], element=field) for field in fields[:1]]
