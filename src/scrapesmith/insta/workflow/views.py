"""Workflow programs: what an agent did in judged-successful episodes, as steps that replay with no model.

A :class:`Workflow` is a small DSL in the spirit of the lists DSL (``lists/dsl.py``), stored as JSON and shown as
readable steps (:meth:`WorkflowStep.describe`). Each step is one action of the agent's action set on an element
found by :class:`Locator` s tried in order (role + accessible name, label text, id/name, a robust CSS selector and
XPath); a name or a value may be a ``{parameter}`` bound from the new task's words, or the value an earlier
``read`` step took off the page — never a value typed because an episode happened to type it. ``checks`` are the
judge's verified criteria the step proves (the state that must hold after it). Several episodes of one task family
merge into one workflow: what varies between them is a parameter, found in the task by alignment
(``insta.workflow.align``), and the task's fixed words form the ``template`` a new task must match.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from scrapesmith.artifacts import check_kind, read_artifact_text, read_json_object, validate_artifact
from scrapesmith.errors import ScrapesmithError

WORKFLOW_VERSION = 1
LocatorKind = Literal["role", "label", "id", "name", "css", "xpath", "source", "satisfies"]
#: The order locators are tried in: what a user sees first, then what authors keep stable, then structure.
LOCATOR_ORDER: tuple[LocatorKind, ...] = ("source", "satisfies", "role", "label", "id", "name", "css", "xpath")


class WorkflowError(ScrapesmithError):
    """A workflow file is missing, unreadable or not a workflow; or a workflow cannot run on a task."""


class Locator(BaseModel):
    """One way to find the element again. ``role``: an element of that role whose accessible name is ``value``
    (and whose row or card holds ``context``, for names that repeat); ``label``: a field labelled ``value``;
    ``id``/``name``: the attribute; ``css``/``xpath``: a robust selector; ``source``: the element a task phrase
    points to ("the 2nd text area", ``insta.reading``); ``satisfies``: the one element (of ``role``) whose name meets
    what the task asks of a value (``value``: 'starts with "{p1}"', ``insta.values.value_constraints``: a suggestion
    chosen). ``value`` and ``context`` may hold ``{parameter}`` s."""

    kind: LocatorKind
    value: str
    role: str | None = None
    context: str | None = None

    def describe(self) -> str:
        if self.kind == "role":
            near = f" near {self.context!r}" if self.context else ""
            return f"{self.role} {self.value!r}{near}"
        if self.kind == "satisfies":
            return f"the {self.role or 'element'} whose name {self.value}"
        return f"{self.kind} {self.value!r}"


class ValueRef(BaseModel):
    """Where a step's value comes from: a ``parameter`` of the task, the value the ``read`` step number ``read``
    took, the value the ``page`` gives by a ``reading`` (``insta.page_values``: the problem it shows, computed; the
    value beside the label the task or the field names) read again on the new page, a ``constant`` of the workflow
    (only for choices: an option, a box state), or ``unbound``: the episode typed something neither the task nor
    the page gave (a model's own answer) — replay refuses to invent it."""

    source: Literal["parameter", "read", "page", "constant", "unbound"]
    parameter: str | None = None
    read: int | None = None
    reading: Literal["computed", "labelled"] | None = None
    constant: str | None = None
    example: str = Field(default="", description="the value in the episode it was compiled from")

    def describe(self) -> str:
        if self.source == "parameter":
            return f"{{{self.parameter}}}"
        if self.source == "read":
            return f"the value read in step {self.read}"
        if self.source == "page":
            return "the value of the problem the page shows" if self.reading == "computed" else \
                "the value the page shows beside the label"
        if self.source == "constant":
            return repr(self.constant)
        return f"(no source: the episode typed {self.example!r}, which neither the task nor the page gave)"


class Parameter(BaseModel):
    """A value the task gives: found by the ``template`` slot of the same name, else as the ``ordinal``-th span of
    its ``kind`` (a quoted phrase, a date, a time, a number, a name, words). ``items``: a list ("A, B and C")
    whose items each run the step that repeats over it."""

    name: str
    kind: Literal["quoted", "date", "time", "number", "name", "words"]
    ordinal: int = 1
    items: bool = False
    examples: list[str] = Field(default_factory=list)


class WorkflowStep(BaseModel):
    """One action: ``action`` of the agent's action set, on the element ``locators`` find (none for scroll, back,
    stop), with ``value`` (fill, select, an answer), other ``options`` (``checked``, ``to``, ``word``,
    ``delta_y``), ``repeat`` over a list parameter's items, and ``checks``: criteria (indexes into the task's
    clauses, ``insta.evidence_judge.task_criteria``) that hold once this step is done."""

    action: str
    locators: list[Locator] = Field(default_factory=list)
    value: ValueRef | None = None
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    repeat: str | None = None
    checks: list[int] = Field(default_factory=list)
    check_texts: list[str] = Field(default_factory=list, description="the checked criteria, as compiled")
    reveal: list[list[Locator]] = Field(default_factory=list, description="controls to click, one by one, when the "
                                        "element is not on the page (tabs, sections: insta.workflow.reveal)")
    reveal_kinds: list[str] = Field(default_factory=list, description="CSS selectors of the kind of control that "
                                    "revealed such elements (a collapsed folder's class): when the named ones are "
                                    "not there, each visible match is clicked in turn (insta.workflow.reveal)")

    def describe(self) -> str:
        what = {"select_option": "select", "set_checked": "check" if self.options.get("checked", True) else "uncheck",
                "go_back": "go back"}.get(self.action, self.action)
        value = f" {self.value.describe()}" if self.value is not None else ""
        where = f" on {' | '.join(locator.describe() for locator in self.locators)}" if self.locators else ""
        if self.action == "fill":
            text = f"type{value}{where}"
        elif self.action == "select_option":
            text = f"select{value}{where}"
        elif self.action == "stop":
            text = f"stop{' with answer' + value if self.value else ''}"
        else:
            text = f"{what}{where}"
        if self.repeat:
            text = f"for each item of {{{self.repeat}}}: {text}"
        if self.reveal:
            shown = ", ".join(next((lo.value for lo in control if lo.kind == "role"), "?") for control in self.reveal)
            text += f" (not there: reveal it with {shown})"
        if self.reveal_kinds:
            text += f" (or any {' or '.join(repr(kind) for kind in self.reveal_kinds)})"
        if self.check_texts:
            text += " — then check: " + "; ".join(self.check_texts)
        return text


class Provenance(BaseModel):
    """One judged-successful episode a workflow was compiled from."""

    site: str
    url: str
    task: str
    judge: str = "evidence"
    success: float = 1.0
    run: str = ""


class Workflow(BaseModel):
    """A replayable workflow; ``id`` is a content hash of what replay depends on (see the module docstring)."""

    kind: Literal["workflow"] = "workflow"
    version: Literal[1] = WORKFLOW_VERSION
    family: str = Field(description="host and path of the start page: the task family (one site page, one "
                        "MiniWoB task)")
    start_url: str
    template: str = Field(description="the task with each parameter as {name} and words that varied as {*}")
    parameters: list[Parameter] = Field(default_factory=list)
    steps: list[WorkflowStep]
    criteria: int = Field(default=0, description="how many clauses the compiled tasks had (checks index them)")
    provenance: list[Provenance] = Field(default_factory=list)
    compiled_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    @property
    def workflow_id(self) -> str:
        payload = self.model_dump(mode="json", include={"version", "family", "template", "parameters", "steps"})
        return "wf-" + hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]

    def describe(self) -> list[str]:
        """The steps as numbered lines, for people (the CLI, the report)."""
        return [f"{number}. {step.describe()}" for number, step in enumerate(self.steps, start=1)]

    def to_json(self) -> str:
        return json.dumps({"id": self.workflow_id, **self.model_dump(mode="json"), "readable": self.describe()},
                          indent=2, ensure_ascii=False)

    def save(self, folder: Path) -> Path:
        path = Path(folder) / f"{self.workflow_id}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: Path) -> Workflow:
        data = read_json_object(read_artifact_text(path, "workflow", WorkflowError), "workflow", WorkflowError)
        check_kind(data, "workflow", "workflow", "steps", WorkflowError)
        data.pop("readable", None)
        return validate_artifact(cls, data, "workflow", WorkflowError)


def load_workflows(path: Path) -> list[Workflow]:
    """The workflow in a file, or every ``*.json`` workflow in a folder (a run's ``workflows/``)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise WorkflowError(f"no workflows (*.json) in {path}")
        return [Workflow.load(file) for file in files]
    return [Workflow.load(path)]
