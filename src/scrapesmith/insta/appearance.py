"""Task words that name what things look like, matched to what the page shows (``insta.perception``).

A task describes a thing by adjectives before a head noun: a size (large, small), a colour (any CSS colour name or
a shade: "olive", "aqua", "green") and a head — a shape (circle, rectangle, square, box, triangle), a kind (item,
shape, letter, digit) or the one character it shows ("a small p"). :func:`describe_task` reads that description;
:func:`matching` keeps the page's rendered leaves that fit every word of it: a colour by its computed RGB (the
word's own CSS colour, else — when no peer has that exact colour — its shade), a size by the leaf's size class
among its peers, a shape by its tag and sides, a character by its text. The page's own copy of the task (it often
shows a swatch of the colour asked for) is left out. Reading steps on what is perceived:

- *which*: "Click on the olive colored box" — the first fitting leaf is the target (click, or hover when the task
  says hover);
- *how many*: "How many large red items are there?" — the fitting leaves are counted and the control showing that
  number is the target (or the number is typed);
- *where*: "Click on the grid coordinate (1,-2)" — the axis labels (numbers in a row, numbers in a column) are
  fitted to their positions, and the shape nearest the point they give is the target.

Nothing here names a page or a task: only words for colours, sizes, shapes and kinds, and the page's geometry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scrapesmith.insta.colours import CSS_COLOURS
from scrapesmith.insta.perception import SHADES, Percept, colour_distance
from scrapesmith.insta.views import Action, ActionCandidate, Element

SIZE_WORDS = {"large": "large", "big": "large", "larger": "large", "bigger": "large", "largest": "large",
              "biggest": "large", "huge": "large", "small": "small", "little": "small", "tiny": "small",
              "smaller": "small", "smallest": "small"}
SHAPE_NOUNS = {"circle": "circle", "dot": "circle", "ball": "circle", "disc": "circle", "rectangle": "rectangle",
               "square": "rectangle", "box": "rectangle", "rect": "rectangle", "triangle": "triangle",
               "polygon": "polygon"}
KIND_NOUNS = {"item": "any", "object": "any", "thing": "any", "element": "any", "shape": "shape",
              "letter": "letter", "digit": "digit", "character": "any"}
#: Words between the adjectives and the head that describe nothing ("the olive *colored* box").
FILLERS = frozenset({"colored", "coloured", "color", "colour", "shaded", "filled", "sized"})
DETERMINERS = frozenset({"a", "an", "the", "many", "any", "one", "each", "every", "all"})
#: Axis labels share a row when their centres are within this many pixels vertically, a column horizontally.
ROW_TOLERANCE = 6.0
COLUMN_TOLERANCE = 8.0
#: "colored" with no colour word: any colour that is not a grey (black, white and greys are not "colored").
COLOURED = "colored"
NO_COLOUR = frozenset({"black", "white", "grey"})
#: A colour word names exactly this colour when the leaf's colour is within this distance of it (rounding).
SAME_COLOUR = 20.0
_TOKEN = re.compile(r"[A-Za-z0-9]+")
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
_HOVER = re.compile(r"\bhover", re.IGNORECASE)
_POINT = re.compile(r"\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
QUOTE_MARKS = "\"'“”‘’`"
NOT_SHAPES = frozenset({"canvas", "img", "video", "iframe", "picture", "object", "embed"})


@dataclass(frozen=True)
class Description:
    """What a task says a thing looks like; ``phrase``: its words as the task has them."""

    phrase: str
    head: str  # a shape (circle, rectangle, triangle, polygon), a kind (any, shape, letter, digit) or "char"
    char: str | None = None
    colour: str | None = None
    size: str | None = None


def _singular(word: str) -> str:
    low = word.casefold()
    if low.endswith("es") and low[:-2] in SHAPE_NOUNS | KIND_NOUNS:
        return low[:-2]
    return low[:-1] if low.endswith("s") and low[:-1] in {**SHAPE_NOUNS, **KIND_NOUNS} else low


def _is_colour(word: str) -> bool:
    return word in CSS_COLOURS or word in SHADES


def describe_task(task: str) -> Description | None:
    """The first description of a thing by its looks in ``task``: adjectives (size, colour) then a head noun; a
    bare kind ("an item") needs an adjective, a character needs a determiner or an adjective before it."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(task)]
    for index, (word, _, end) in enumerate(tokens):
        low = _singular(word)
        before = [t[0].casefold() for t in tokens[:index]]
        char = None
        if low in SHAPE_NOUNS:
            head = SHAPE_NOUNS[low]
        elif low in KIND_NOUNS:
            head = KIND_NOUNS[low]
        elif index and (len(word) == 1 or (len(word) == 2 and word[1] == "s" and before[-1:] != ["a"]
                                           and _HOW_MANY.search(task) is not None)) and (
                before[-1] in DETERMINERS or before[-1] in SIZE_WORDS or _is_colour(before[-1])):
            around = task[tokens[index][1] - 1: tokens[index][1]] + task[end: end + 1]
            if any(mark in around for mark in QUOTE_MARKS):
                continue  # a quoted character is a name ("the \"x\""), not a look
            head, char = "char", word[0]
        else:
            continue
        colour = size = None
        start, coloured = tokens[index][1], False
        for back in range(index - 1, -1, -1):
            adjective = tokens[back][0].casefold()
            if adjective in FILLERS:
                start, coloured = tokens[back][1], coloured or adjective.startswith("colo")
                continue
            if adjective in SIZE_WORDS and size is None:
                size = SIZE_WORDS[adjective]
            elif _is_colour(adjective) and colour is None:
                colour = adjective
            else:
                break
            start = tokens[back][1]
        nearest = next((tokens[b][0].casefold() for b in range(index - 1, -1, -1)
                        if tokens[b][0].casefold() not in FILLERS), "")
        if nearest not in DETERMINERS and nearest not in SIZE_WORDS and not _is_colour(nearest):
            continue  # "the dialog box", "upper case letters": the head belongs to another noun
        if colour is None and coloured:
            colour = COLOURED  # "the colored square": the one with a colour, among grey, black and white ones
        if head in ("any", "shape") and colour is None and size is None:
            continue  # "an item", "the shape": nothing told about it
        return Description(phrase=task[start:end], head=head, char=char, colour=colour, size=size)
    return None


def _fits_head(percept: Percept, description: Description) -> bool:
    kind = percept.kind
    if description.head == "char":
        return percept.text == description.char
    if description.head == "any":
        return kind in ("shape", "letter", "digit")
    if description.head in ("shape", "letter", "digit"):
        return kind == description.head
    return kind == "shape" and percept.shape == description.head


def _same_colour(percept: Percept, word: str) -> bool:
    wanted = CSS_COLOURS.get(word) or CSS_COLOURS.get("gray" if word == "grey" else word)
    return percept.rgb is not None and wanted is not None and colour_distance(percept.rgb, wanted) <= SAME_COLOUR


def seen_items(percepts: list[Percept], left_out: set[int]) -> list[Percept]:
    """The leaves a description can be about: not a control, not a picture, not in the page's copy of the task."""
    return [p for p in percepts if not p.control and p.tag not in NOT_SHAPES and p.id not in left_out]


def matching(percepts: list[Percept], description: Description) -> list[Percept]:
    """The leaves that fit every word of ``description``, in page order; a colour word matches its exact colour,
    or its shade when no leaf of the head's kind has the exact colour."""
    found = [p for p in percepts if _fits_head(p, description)]
    if description.size:
        found = [p for p in found if p.size_class in (None, description.size)]
    if description.colour == COLOURED:
        return [p for p in found if p.shade is not None and p.shade not in NO_COLOUR]
    if description.colour:
        exact = [p for p in found if _same_colour(p, description.colour)]
        found = exact if exact or description.colour not in SHADES else \
            [p for p in found if p.shade == description.colour or (p.shade == "grey" and description.colour == "gray")]
    return found


def _target(percept: Percept) -> Element:
    looks = percept.looks()
    return Element(id=percept.id, tag=percept.tag, role="shape" if percept.kind == "shape" else "text",
                   text=percept.text or looks, looks=looks, seen=percept.seen())


def _axis(labels: list[tuple[float, float, float]], along: int) -> tuple[float, float] | None:
    """value = a * position + b fitted to labels (x, y, value) on one axis (``along`` 0: x, 1: y)."""
    if len({label[2] for label in labels}) < 2:
        return None
    n = len(labels)
    xs, vs = [label[along] for label in labels], [label[2] for label in labels]
    mean_x, mean_v = sum(xs) / n, sum(vs) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    slope = sum((x - mean_x) * (v - mean_v) for x, v in zip(xs, vs, strict=True)) / spread
    return (slope, mean_v - slope * mean_x) if slope else None


def _aligned(labels: list[tuple[float, float, float]], across: int, tolerance: float) -> list[tuple[float, float, float]]:
    """The largest set of labels sharing a position across the axis (a row of numbers, a column of numbers)."""
    best: list[tuple[float, float, float]] = []
    for label in labels:
        group = [other for other in labels if abs(other[across] - label[across]) <= tolerance]
        if len(group) > len(best):
            best = group
    return best


def point_target(task: str, percepts: list[Percept]) -> tuple[str, Percept] | None:
    """The shape at the coordinates ``(x, y)`` the task gives, read off the page's axis labels."""
    match = _POINT.search(task)
    if match is None:
        return None
    labels = [(p.centre[0], p.centre[1], float(p.text)) for p in percepts if _NUMBER.match(p.text) and not p.control]
    row, column = _aligned(labels, 1, ROW_TOLERANCE), _aligned(labels, 0, COLUMN_TOLERANCE)
    x_axis, y_axis = _axis(row, 0), _axis(column, 1)
    if x_axis is None or y_axis is None or len(row) < 3 or len(column) < 3:
        return None
    want_x, want_y = float(match.group(1)), float(match.group(2))
    at = ((want_x - x_axis[1]) / x_axis[0], (want_y - y_axis[1]) / y_axis[0])
    shapes = [p for p in percepts if p.kind == "shape" and p.shape not in (None, "line") and p.tag not in NOT_SHAPES]
    if not shapes:
        return None
    nearest = min(shapes, key=lambda p: (p.centre[0] - at[0]) ** 2 + (p.centre[1] - at[1]) ** 2)
    return match.group(0), nearest


def appearance_candidates(task: str, percepts: list[Percept], elements: list[Element],
                          restates: Callable[[int], bool] | None = None) -> list[ActionCandidate]:
    """The actions the task's words about looks decide: click (or hover) the thing described, click the control
    showing how many there are, click the point at the coordinates given. Empty when the task describes
    nothing by its looks or the page shows nothing that fits."""
    left_out = {p.id for p in percepts if restates is not None and restates(p.id)}
    items = seen_items(percepts, left_out)
    point = point_target(task, items)
    key = "hover" if _HOVER.search(task) else "click"
    if point is not None:
        phrase, percept = point
        return [ActionCandidate(id="", action=Action(action_key=key, target_element_id=percept.id),
                                text=f"{key} [id: {percept.id}] {percept.looks()}: the point {phrase}",
                                score=4.0, grounded=[phrase], element=_target(percept))]
    description = describe_task(task)
    if description is None:
        return []
    found = matching(items, description)
    if _HOW_MANY.search(task):
        count = str(len(found))
        out = []
        for element in elements:
            if element.role in ("textbox", "select") or element.name.strip() != count:
                continue
            out.append(ActionCandidate(id="", action=Action(action_key="click", target_element_id=element.id),
                                       text=f'click [id: {element.id}] "{count}": {count} {description.phrase} seen',
                                       score=4.0, grounded=[f"how many {description.phrase}: {count}"],
                                       element=element))
        return out[:1]
    if not found:
        return []
    peers = [p for p in found if sum(1 for q in percepts if q.parent == p.parent) > 1]
    percept = (peers or found)[0]
    return [ActionCandidate(id="", action=Action(action_key=key, target_element_id=percept.id),
                            text=f"{key} [id: {percept.id}] {percept.looks()}: the {description.phrase}",
                            score=4.0, grounded=[description.phrase], element=_target(percept))]


__all__ = ["Description", "appearance_candidates", "describe_task", "matching", "point_target", "seen_items"]
