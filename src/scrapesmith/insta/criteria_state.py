"""Criteria decided by other means than matching a name: the final page's live state, a constraint on the value a
field held, a wait's length and what a clicked thing looked like (``criteria_looks``); and the verdict of one clause
(:class:`One`) the judge's program pass (``insta.verify``) builds from them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scrapesmith.insta.criteria_looks import by_looks, by_wait
from scrapesmith.insta.criteria_reading import WORD, Act, Reading
from scrapesmith.insta.criteria_words import SEND_WORDS
from scrapesmith.insta.page_values import field_value, send_controls
from scrapesmith.insta.values import satisfies, value_constraints
from scrapesmith.insta.views import Trajectory

Status = Literal["verified", "refuted", "unsure"]


@dataclass
class One:
    status: Status
    at: int = -1
    quote: str = ""
    why: str = ""
    askable: bool = False
    matched: bool = False


def by_constraint(reading: Reading, acts: list[Act], trajectory: Trajectory) -> One | None:
    """"Enter an item that starts with "Sa" and ends with "ino"": the value a field typed into held when the episode
    went on (a suggestion chosen may have replaced what was typed) meets what the clause asks of it."""
    constraints = value_constraints(reading.text)
    if not constraints:
        return None
    fields = [act for act in acts if act.kind == "fill"]
    if not fields:
        return One("refuted", why="nothing was typed")
    held = [(act, field_value(pages_after(act, trajectory), act.element.id)) for act in fields]
    good = [(act, value) for act, value in held if satisfies(value, constraints)]
    if good and send_controls(good[0][0].page) and not any(sends(o) for o in acts if o.index > good[0][0].index):
        return One("unsure", why="the field meets it, but the form was not sent (its send control not clicked)")
    if good:
        return One("verified", quote=f'the field "{good[0][0].element.label or good[0][0].element.name}" holds '
                    f'"{good[0][1]}"')
    return One("refuted", why=f"the field holds {held[-1][1]!r}, which does not meet {reading.text!r}")


def by_seen(criterion: str, trajectory: Trajectory, last: int) -> One | None:
    """A wait of the length the clause names, or a click on what it describes by looks (``criteria_looks``)."""
    check = by_wait(criterion, trajectory, last) or by_looks(criterion, trajectory, last)
    if check is None:
        return None
    status, at, quote = check
    return One(status, at=at, quote=quote, why="" if status == "verified" else f"the step shows {quote or 'none'}",
                askable=status == "unsure", matched=status == "unsure")  # type: ignore[arg-type]


def pages_after(act: Act, trajectory: Trajectory) -> str:
    """The last page the episode saw after ``act`` (the final one when it was the last step)."""
    return ([step.observation for step in trajectory.steps[act.index + 1:]] or [trajectory.final_observation])[-1]


def by_state(state: str, page: str) -> One | None:
    """"Expand the section": the final page's live state decides — an element shown ``(expanded)`` verifies
    it, only ``(collapsed)`` ones refute it; a page showing neither leaves it to the other checks."""
    other = "collapsed" if state == "expanded" else "expanded"
    shown = re.search(rf"\[id: \d+\][^\[\n]*\({state}\)", page)
    if shown:
        return One("verified", quote=shown.group(0).strip())
    if f"({other})" in page:
        return One("refuted", why=f"the final page shows nothing {state}")
    return None


def sends(act: Act) -> bool:
    """A click on a control named for sending a message (Send, Reply, Submit ...)."""
    e = act.element
    return act.kind == "click" and bool(SEND_WORDS & {w.casefold() for w in WORD.findall(f"{e.name} {e.hint}")})


__all__ = ["One", "Status", "by_constraint", "by_seen", "by_state", "pages_after", "sends"]
