"""Timing: "wait 2 seconds, then click TWO" — a wait is an action of its own, with a bound.

:func:`wait_candidates` offers a ``wait`` for each span of time the task names, in the task's order; the environment
(``insta.env``) waits that long counted from the end of the previous action (the time spent looking at the page and
choosing counts too), never longer than :data:`MAX_WAIT`. With a target a wait ends early when that element is shown
and enabled: a control that appears or enables after a delay.
"""

from __future__ import annotations

import re

from scrapesmith.insta.views import Action, ActionCandidate

#: No wait is longer than this (seconds), whatever the task or the model asks.
MAX_WAIT = 10.0
_WAIT = re.compile(r"\bwait(?:\s+for)?\s+(\d+(?:\.\d+)?|an?|one|two|three|four|five)\s*"
                   r"(seconds?|secs?|s|milliseconds?|ms|minutes?|mins?)\b", re.IGNORECASE)
_WORDS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0}


def wait_seconds(amount: str, unit: str) -> float:
    value = _WORDS.get(amount.casefold()) or float(amount)
    unit = unit.casefold()
    if unit.startswith(("ms", "milli")):
        value /= 1000
    elif unit.startswith("min"):
        value *= 60
    return min(value, MAX_WAIT)


def wait_candidates(task: str) -> list[ActionCandidate]:
    """A ``wait`` for each span of time the task names; scored as a named step (2) plus its place in the task."""
    out = []
    for match in _WAIT.finditer(task):
        seconds = wait_seconds(match.group(1), match.group(2))
        order = 1.0 - match.start() / max(1, len(task))
        out.append(ActionCandidate(id="", action=Action(action_key="wait", action_kwargs={"seconds": seconds}),
                                   text=f"wait {seconds:g} seconds", score=2.0 + order, grounded=[match.group(0)]))
    return out


#: Scores of an action on a grounded control shown disabled, and of waiting for it: below every grounded action on an
#: enabled control (2 and up), so what the task asks first (scroll to the end, tick the box) is done first.
DISABLED_SCORE = 0.4
WAIT_FOR_SCORE = 0.45
#: Actions a disabled control refuses (a disabled text area still scrolls and reads).
NEEDS_ENABLED = frozenset({"click", "fill", "select_option", "set_checked"})


def wait_for_candidates(candidates: list[ActionCandidate], disabled: set[int]) -> list[ActionCandidate]:
    """For each grounded candidate whose target is shown disabled: the candidate is ranked below every action on an
    enabled control, and a wait until its target is enabled (at most :data:`MAX_WAIT`) just above it — a control
    that enables after a delay, or after another step, is waited for only when nothing else is left to do."""
    out = []
    for candidate in candidates:
        target = candidate.action.target_element_id
        if target is None or target not in disabled or not candidate.grounded \
                or candidate.action.action_key not in NEEDS_ENABLED:
            continue
        candidate.score = min(candidate.score, DISABLED_SCORE)
        if any(other.action.target_element_id == target for other in out):
            continue
        out.append(ActionCandidate(id="", action=Action(action_key="wait", action_kwargs={"seconds": MAX_WAIT},
                                                        target_element_id=target),
                                   text=f"wait until [id: {target}] is enabled (at most {MAX_WAIT:g} s)",
                                   score=WAIT_FOR_SCORE, grounded=list(candidate.grounded), element=candidate.element))
    return out


__all__ = ["MAX_WAIT", "wait_candidates", "wait_for_candidates", "wait_seconds"]
