"""Values the page gives that the task does not quote: what to type when a task says "solve the problem" or "enter
the value of Language".

Two readings, each from evidence any page can show and each giving one value or none (never a guess):

* ``computed`` — the page shows one arithmetic problem: numbers joined by ``+ - × * / ÷``, ending in ``=``
  ("7 + 3 =") or an equation in one unknown letter ("x + 7 = 5", "12 - x = 4", "3x = 12"). Its value is the
  expression's, or the unknown's (the equation solved as a linear one; anything else is left alone).
* ``labelled`` — the page shows a key/value row (a two-cell table row, or a "Key: value" line) whose key is the label
  the task names ("the value of *Language*") or, when the task names none, the label of the field typed into
  ("Language: [field]").

The evidence judge (``insta.verify``) verifies a typed value that equals the one the page gives and refutes one that
differs; a workflow (``insta.workflow``) types what the page gives on the new page, read the same way.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from scrapesmith.dom import normalize_text
from scrapesmith.insta.criteria_words import SEND_WORDS

PageReading = Literal["computed", "labelled"]


@dataclass(frozen=True)
class PageValue:
    """A value read off the page: how (``reading``), the value, and what it came from (an expression, a key)."""

    reading: PageReading
    value: str
    source: str


_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_SIGNS = str.maketrans({"×": "*", "÷": "/", "−": "-", "–": "-"})
_PROBLEM = re.compile(r"^[\d\s.+\-*/()a-z]*[+\-*/][\d\s.+\-*/()a-z]*=[\d\s.+\-*/()a-z]*$", re.IGNORECASE)
_IMPLICIT = re.compile(r"(\d)\s*([a-z])", re.IGNORECASE)  # "3x": 3 * x
_TIMES_X = re.compile(r"(\d)\s+x\s+(\d)", re.IGNORECASE)  # "3 x 4 =": a times sign, when nothing else is unknown
_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|$")
_KEY_VALUE = re.compile(r"^([A-Za-z][\w ]{0,40}?)\s*:\s+(?!\[id:)(\S.*)$")
_TASK_LABEL = re.compile(r"\bvalue\s+(?:of|for)\s+(?:the\s+)?[\"“']?(.+?)[\"”']?\s+(?:in|into|to|on|and)\b",
                         re.IGNORECASE)


def _evaluate(node: ast.AST, unknown: str | None, at: float) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, unknown, at)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id == unknown:
        return at
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, unknown, at)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left, unknown, at), _evaluate(node.right, unknown, at))
    raise ValueError("not arithmetic")


def _shown(number: float) -> str:
    return str(round(number)) if abs(number - round(number)) < 1e-9 else f"{number:.4f}".rstrip("0")


def solve(problem: str) -> str | None:
    """The value of ``problem`` ("7 + 3 =", "x - 4 = 9"), or None when it is no problem of one value."""
    text = normalize_text(problem).translate(_SIGNS).strip()
    if text.count("=") != 1 or not re.search(r"\d", text):
        return None
    left, right = (side.strip() for side in text.split("="))
    words = set(re.findall(r"[a-z]+", text, re.IGNORECASE))
    if len(words) > 1 or any(len(word) > 1 for word in words):
        return None
    if words == {"x"} and not right and _TIMES_X.search(left):
        left, words = _TIMES_X.sub(r"\1 * \2", left), set()
    left, right = _IMPLICIT.sub(r"\1*\2", left), _IMPLICIT.sub(r"\1*\2", right)
    if not _PROBLEM.match(f"{left} = {right}"):
        return None
    unknown = words.pop() if words else None
    if (unknown is None) != (not right):  # "7 + 3 =" asks for a value; "x + 7 = 5" for the unknown
        return None
    try:
        lhs, rhs = (ast.parse(side or "0", mode="eval") for side in (left, right))
        if unknown is None:
            return _shown(_evaluate(lhs, None, 0.0))
        gap = [_evaluate(lhs, unknown, at) - _evaluate(rhs, unknown, at) for at in (0.0, 1.0, 2.0)]
    except (SyntaxError, ValueError, ZeroDivisionError):
        return None
    slope = gap[1] - gap[0]
    if abs(slope) < 1e-12 or abs(gap[2] - gap[0] - 2 * slope) > 1e-9:  # not linear in the unknown
        return None
    return _shown(-gap[0] / slope)


def computed_values(page: str) -> list[PageValue]:
    """Every arithmetic problem the page shows, one per line of its text, with its value."""
    out = []
    for line in page.splitlines():
        value = solve(line) if "=" in line and "[id:" not in line else None
        if value is not None:
            out.append(PageValue("computed", value, line.strip()))
    return out


def key_values(page: str) -> dict[str, str]:
    """The page's key/value rows (two-cell table rows, "Key: value" lines), keys case-folded; a key shown twice
    with two values is left out (which one is meant is unknown)."""
    pairs: dict[str, set[str]] = {}
    for line in page.splitlines():
        line = line.strip()
        match = _ROW.match(line) or _KEY_VALUE.match(line)
        if match and not set(match.group(2)) <= set("-: "):
            pairs.setdefault(normalize_text(match.group(1)).casefold(), set()).add(normalize_text(match.group(2)))
    return {key: values.pop() for key, values in pairs.items() if len(values) == 1}


_FIELD = re.compile(r"^(.+?):?\s*\[id: (\d+)\] \"[^\"]*\" \([^)]*\binput\b", re.MULTILINE)


def labelled_fields(page: str) -> dict[int, str]:
    """The text fields whose label is a key of the page's key/value rows ("Language: [id: 35] ..."), by id."""
    keys = key_values(page)
    return {int(match.group(2)): match.group(1).strip() for match in _FIELD.finditer(page)
            if normalize_text(match.group(1)).rstrip(":").strip().casefold() in keys}


def task_label(clause: str) -> str | None:
    """The label a clause names for its value ("Enter the value of Language into ...": Language)."""
    match = _TASK_LABEL.search(clause)
    return normalize_text(match.group(1)) if match else None


def labelled_values(clause: str, page: str, field_label: str = "") -> list[PageValue]:
    """The value beside the label the clause names, else beside the field's own label (its colon aside)."""
    label = task_label(clause) or normalize_text(field_label).rstrip(":").strip()
    if not label:
        return []
    value = key_values(page).get(label.casefold())
    return [PageValue("labelled", value, label)] if value else []


def page_values(clause: str, page: str, field_label: str = "", field_id: int | None = None) -> list[PageValue]:
    """What the page gives for a value the clause does not quote: the one problem it shows, or the value of the
    label; empty when the page shows no such thing or several problems (which one is meant is unknown). A field
    with no label of its own is labelled by the text printed before it ("Language: [field]", ``field_id``)."""
    if not field_label and field_id is not None:
        field_label = labelled_fields(page).get(field_id, "")
    computed = computed_values(page)
    distinct = {value.value for value in computed}
    found = computed[:1] if len(distinct) == 1 else []
    return found + labelled_values(clause, page, field_label)


#: A control that sends a form, as the page view lists it ("[id: 22] Submit button"): an entry counts once sent.
_SEND_CONTROL = re.compile(r"\[id: \d+\] (?:" + "|".join(sorted(SEND_WORDS)) + r") button", re.IGNORECASE)


def send_controls(page: str) -> int:
    """How many controls that send a form the page view lists (a dialog's own "OK" beside a form's makes two)."""
    return len(_SEND_CONTROL.findall(page))


def field_value(page: str, element_id: int) -> str:
    """What the field ``element_id`` shows in the page view (``[id: 21] "San Marino"``), empty when not shown."""
    found = re.search(rf"\[id: {element_id}\] \"([^\"]*)\"", page)
    return found.group(1) if found else ""


def rows_showing(handles: list[str], page: str) -> int:
    """How many lines of the page show every handle with its sign: "all posts by @enola" is as many posts as the
    page prints that handle on (0 when a line shows it twice: which post it belongs to is unknown)."""
    signed = [re.compile(rf"(?<![\w@#]){re.escape(h)}(?!\w)", re.IGNORECASE) for h in handles]
    rows = [line for line in page.splitlines() if all(pattern.search(line) for pattern in signed)]
    if any(len(pattern.findall(line)) > 1 for line in rows for pattern in signed):
        return 0
    return len(rows)
