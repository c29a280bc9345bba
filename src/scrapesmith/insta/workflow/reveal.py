"""Reveal steps: controls that show hidden parts of a page (tabs, collapsed sections), pooled across episodes.

Episodes of one task family that look for an element the task names ("click on the link "X"") open sections or
tabs first, and which ones depends on where X was that time: each episode's path is one workflow with the same
template. Replaying one path finds X only when it is where it was. So every step that acts on an element named
by a parameter gets the **reveal** controls of the family: the clicks on fixed names (no parameter) that came
before such a step in any workflow of the same family and template. When replay cannot find the element, it
clicks those controls one by one, looking again after each (``replay.WorkflowPolicy``).

A control's name is often no better than the element's: the folder a file was in has a name of that instance too.
So each control also gives its **kind**: the tag and classes of the element clicked, from its recorded CSS selector
(``li.expandable`` for a collapsed folder of a tree), without its position. When no named control is left, replay
clicks the visible elements of that kind one by one (each once); a class that marks a collapsed state stops
matching once the control is open.
"""

from __future__ import annotations

import re

from scrapesmith.insta.workflow.views import Locator, Workflow, WorkflowStep

#: The last compound of a CSS selector: a tag with classes, then position pseudo-classes (``:nth-of-type(2)``).
_LAST_COMPOUND = re.compile(r"(?:^|[\s>+~])([a-z][a-z0-9]*(?:\.[\w-]+)+)((?::nth-of-type\(\d+\)|:first-of-type|"
                            r":last-of-type)*)$", re.IGNORECASE)


def _named_by_parameter(step: WorkflowStep) -> bool:
    return any(locator.kind == "role" and "{" in locator.value for locator in step.locators)


def _fixed_click(step: WorkflowStep) -> list[Locator] | None:
    """The locators of a click on an element with a fixed name (its role and id locators), else None."""
    if step.action != "click" or _named_by_parameter(step):
        return None
    kept = [locator for locator in step.locators if locator.kind in ("role", "id")]
    return kept if any(locator.kind == "role" for locator in kept) else None


def kind_of(step: WorkflowStep) -> str | None:
    """The kind of element a fixed click acted on: its CSS selector's last tag and classes, no position (None when
    the selector names no class: a bare tag is no kind, every link would match)."""
    for locator in step.locators:
        if locator.kind == "css":
            found = _LAST_COMPOUND.search(locator.value.strip())
            if found:
                return found.group(1)
    return None


def add_reveals(workflows: list[Workflow]) -> None:
    """Give every step on an element named by a parameter the reveal controls of its family and template."""
    groups: dict[tuple[str, str], list[Workflow]] = {}
    for workflow in workflows:
        groups.setdefault((workflow.family, workflow.template), []).append(workflow)
    for group in groups.values():
        controls: list[list[Locator]] = []
        kinds: list[str] = []
        for workflow in group:
            for index, step in enumerate(workflow.steps):
                if not _named_by_parameter(step):
                    continue
                for before in workflow.steps[:index]:
                    found = _fixed_click(before)
                    if found is not None and found not in controls:
                        controls.append(found)
                    kind = kind_of(before) if found is not None else None
                    if kind is not None and kind not in kinds:
                        kinds.append(kind)
        if not controls:
            continue
        for workflow in group:
            for step in workflow.steps:
                if _named_by_parameter(step) and step.action in ("click", "hover", "set_checked", "select_option"):
                    step.reveal = [list(control) for control in controls]
                    step.reveal_kinds = list(kinds)
