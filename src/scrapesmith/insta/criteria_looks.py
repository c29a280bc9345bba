"""The judge's reading of criteria about looks and timing: checked against what the steps recorded, not the policy's
claims.

- "Click on a small p", "Click on the olive colored box": the description (``insta.appearance.describe_task``) is
  checked against what the clicked element looked like when it was clicked (``Element.seen``, recorded from the
  rendered page): its kind or shape, its character, its exact colour, its size class. Every word holds: verified;
  one contradicts (another colour, another shape): refuted; a word the record cannot settle (a size among peers of
  one size): unsure. Only a criterion that asks for a click is read so ("Keep the mouse hovered …" asks for a
  duration the log does not show).
- "wait 2 seconds": a ``wait`` step of that length after the previous criterion's step verifies it; a wait of another
  length, or none, refutes it.

Each check answers ``(status, step index, quote)`` or None when the criterion is not of its kind.
"""

from __future__ import annotations

import re
from typing import Any

from scrapesmith.insta import appearance
from scrapesmith.insta.appearance import COLOURED, NO_COLOUR, Description, describe_task
from scrapesmith.insta.colours import CSS_COLOURS
from scrapesmith.insta.perception import colour_distance
from scrapesmith.insta.timing import wait_seconds
from scrapesmith.insta.views import Trajectory

CLICK_VERBS = frozenset({"click", "pick", "select", "choose", "tap", "press", "buy", "hit"})
_FIRST_WORD = re.compile(r"\s*(\w+)")
_WAIT = re.compile(r"^\s*(?:then\s+)?wait(?:\s+for)?\s+(\d+(?:\.\d+)?|an?|one|two|three|four|five)\s*"
                   r"(seconds?|secs?|s|milliseconds?|ms|minutes?|mins?)\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.IGNORECASE)

Check = tuple[str, int, str]


def _holds(seen: dict[str, Any], description: Description) -> bool | None:
    """Whether what was seen fits every word of the description; None when a word cannot be settled."""
    kind, shape = seen.get("kind"), seen.get("shape")
    if description.head == "char":
        fits = seen.get("text") == description.char
    elif description.head == "any":
        fits = kind in ("shape", "letter", "digit")
    elif description.head in ("shape", "letter", "digit"):
        fits = kind == description.head
    else:
        fits = kind == "shape" and shape == description.head
    if not fits:
        return False
    unsettled = False
    if description.colour == COLOURED:
        if seen.get("shade") is None or seen["shade"] in NO_COLOUR:
            return False
    elif description.colour:
        wanted = CSS_COLOURS.get(description.colour) or CSS_COLOURS.get("gray" if description.colour == "grey" else "")
        rgb = seen.get("rgb")
        if wanted is None or rgb is None:
            unsettled = True
        elif colour_distance(tuple(rgb), wanted) > appearance.SAME_COLOUR:  # type: ignore[arg-type]
            return False
    if description.size:
        if seen.get("size_class") is None:
            unsettled = True
        elif seen["size_class"] != description.size:
            return False
    return None if unsettled else True


def by_looks(criterion: str, trajectory: Trajectory, last: int) -> Check | None:
    """A click criterion that describes its target by looks, checked on the first click after step ``last``
    whose element recorded what it looked like."""
    verb = _FIRST_WORD.match(criterion)
    if verb is None or verb.group(1).casefold() not in CLICK_VERBS or _HOW_MANY.search(criterion):
        return None
    description = describe_task(criterion)
    if description is None:
        return None
    for index, step in enumerate(trajectory.steps):
        if index <= last or step.error or step.action is None or step.action.action_key != "click":
            continue
        if step.target is None or not step.target.seen:
            return None  # the click's element recorded no looks: the other readings decide
        holds = _holds(step.target.seen, description)
        quote = f'click "{step.target.looks}"'
        return ("verified" if holds else "refuted" if holds is False else "unsure"), index, quote
    return None


def by_wait(criterion: str, trajectory: Trajectory, last: int) -> Check | None:
    """"wait N seconds": a successful wait of that length after step ``last``."""
    match = _WAIT.match(criterion)
    if match is None:
        return None
    wanted = wait_seconds(match.group(1), match.group(2))
    for index, step in enumerate(trajectory.steps):
        if index <= last or step.error or step.action is None or step.action.action_key != "wait":
            continue
        seconds = float(step.action.action_kwargs.get("seconds", 0) or 0)
        status = "verified" if abs(seconds - wanted) < 1e-6 else "refuted"
        return status, index, f"wait {seconds:g} seconds"
    return "refuted", -1, ""


__all__ = ["by_looks", "by_wait"]
