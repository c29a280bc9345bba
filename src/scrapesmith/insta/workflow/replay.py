"""Replay a workflow with no model: bind its parameters from the task, find each element, act, check, go on.

:class:`WorkflowPolicy` is a policy like the agent's (``insta.agent.run_episode`` drives it), so a replayed episode
is recorded, judged and reported exactly like an agent's. On its first turn it picks the workflow of the page's
family whose template the task matches (:mod:`.pick`, ``align.bind_template``; a family with one workflow also binds by kind and
ordinal) and binds the parameters. Each turn it first checks the step just done — the browser took it, the element
holds the value typed or chosen or the state set, and the judge's program pass (``insta.verify``) verifies the
criteria the step proves — then locates the next step's element (locators in order; a page still settling is
observed again a few times) and returns the action with the value bound: a parameter's words, the value a ``read``
step took, a constant choice. A step whose value has no source is never typed. When a step breaks (no workflow
fits, a parameter is missing, no locator finds the element, a check fails) the episode either stops with the
reason in the step's ``error``, or, with a ``fallback`` policy (the agent), is handed to it from that point: it
sees the workflow's steps as its history. :meth:`WorkflowPolicy.report` says which workflow ran, which step
broke and why, and whether the agent took over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scrapesmith.dom import normalize_text
from scrapesmith.insta.agent import Policy
from scrapesmith.insta.candidates import Grounding
from scrapesmith.insta.evidence_judge import task_criteria
from scrapesmith.insta.page_values import page_values
from scrapesmith.insta.reading import read_source
from scrapesmith.insta.values import same_date_or_value, task_values
from scrapesmith.insta.verify import verify_criteria
from scrapesmith.insta.views import Action, Observation, Step, Trajectory
from scrapesmith.insta.workflow.align import Binding, fill_in
from scrapesmith.insta.workflow.locate import Located, describe_id, find_ids, resolve
from scrapesmith.insta.workflow.pick import pick_workflow
from scrapesmith.insta.workflow.views import Locator, Workflow, WorkflowStep

__all__ = ["KIND_REVEALS", "LOCATE_BUDGET", "LOCATE_POLL", "REVEAL_FIRST", "WorkflowPolicy", "pick_workflow"]

#: A locator that finds nothing is tried again on fresh observations, this often (seconds), for at most this long:
#: an element a click reveals may appear only after an animation. Polling stops as soon as it is there (fixed
#: sleeps of 0.3 s cost a third of a second on every step whose element was still animating in).
LOCATE_POLL = 0.05
LOCATE_BUDGET = 1.2
#: While a step still has reveal controls to try (a tab, a section header that showed its element in other
#: episodes), its element is waited for this long only, then the next control is clicked: waiting the whole
#: budget before each reveal cost 1.2 s per hidden element.
REVEAL_FIRST = 0.15
#: At most this many clicks on controls of a kind (``WorkflowStep.reveal_kinds``) per step: each is an action of
#: the episode's budget, and a page with many such controls is searched only this far.
KIND_REVEALS = 6


@dataclass
class _Issued:
    """The workflow step last handed to the browser, to check on the next turn."""

    index: int
    item: int
    position: int  # its index in the episode's steps
    value: str | None
    target: int | None
    last_item: bool


class WorkflowPolicy:
    """See the module docstring. ``observe`` (the environment's) lets a locator try again on a fresh page."""

    name = "workflow"

    def __init__(self, workflows: list[Workflow], fallback: Policy | None = None,
                 observe: Callable[[], Observation] | None = None, wait: float = LOCATE_BUDGET,
                 by_kind: bool = False) -> None:
        """``by_kind``: the workflows were named outright, so a task their template does not fit may still bind
        by kind and ordinal (``pick_workflow``). ``wait``: how long (seconds) a locator polls fresh observations
        for an element not there yet."""
        self.workflows = workflows
        self.by_kind = by_kind
        self.fallback = fallback
        self.observe = observe
        self.wait = wait
        self._reset()

    def _reset(self) -> None:
        self.workflow: Workflow | None = None
        self.binding: Binding = {}
        self.cursor, self.item = 0, 0
        self.issued: _Issued | None = None
        self.broken: tuple[int, str] | None = None
        self.handed_over = False
        self.located: list[str] = []
        self.revealed: set[int] = set()  # reveal controls clicked for the current step
        self.kind_clicked: list[int] = []  # elements of a reveal kind clicked for the current step
        self.each_done: list[int] = []  # elements an "each" step acted on so far
        self.skipped: list[int] = []  # steps passed over (see _skippable)

    def report(self) -> dict[str, Any]:
        """Which workflow ran, which step broke and why, whether the agent took over, which locators found what."""
        return {"workflow": self.workflow.workflow_id if self.workflow else None,
                "broken_step": self.broken[0] if self.broken else None,
                "broken_why": self.broken[1] if self.broken else None,
                "fallback": self.handed_over, "located_by": list(self.located), "skipped": list(self.skipped)}

    def act(self, task: str, history: list[Step], observation: Observation) -> Step:
        if not history:
            self._reset()
            self.workflow, self.binding, why = pick_workflow(self.workflows, task, observation.url, self.by_kind)
            if self.workflow is None:
                return self._broke(0, why, task, history, observation)
        if self.handed_over:
            return self._delegate(task, history, observation)
        assert self.workflow is not None
        why = self._check(task, history, observation)
        if why:
            return self._broke(self.issued.index + 1 if self.issued else 0, why, task, history, observation)
        self.issued = None  # checked: a reveal click before the next step is not checked against it
        step = self._next_step()
        if step is None:
            return self._stop(observation, None, "every step of the workflow is done")
        index, workflow_step, item = step
        if workflow_step.action == "stop":
            answer, why = self._value(workflow_step, item, history, None, task, observation)
            if why:
                return self._broke(index + 1, why, task, history, observation)
            return self._stop(observation, answer, f"workflow step {index + 1}: stop")
        if workflow_step.options.get("each"):
            return self._each(index, workflow_step, item, task, history, observation)
        unrevealed = len(self.revealed) < len(workflow_step.reveal) or \
            bool(workflow_step.reveal_kinds and len(self.kind_clicked) < KIND_REVEALS)  # a reveal may bring it
        located, observation, why = self._locate(workflow_step, item, observation,
                                                 REVEAL_FIRST if unrevealed else self.wait, Grounding(task=task).restates)
        if why:
            reveal = self._reveal(index, workflow_step, observation)
            if reveal is None and self._skippable(workflow_step):
                self.skipped.append(index + 1)
                self.cursor, self.item, self.revealed, self.kind_clicked = self.cursor + 1, 0, set(), []
                return self.act(task, history, observation)
            return reveal or self._broke(index + 1, why, task, history, observation)
        self.revealed, self.kind_clicked = set(), []
        value, why = self._value(workflow_step, item, history, located, task, observation)
        if why:
            return self._broke(index + 1, why, task, history, observation)
        return self._issue(index, workflow_step, item, value, located, history, observation)

    # -- the steps -------------------------------------------------------------------------------------------

    def _next_step(self) -> tuple[int, WorkflowStep, str | None] | None:
        assert self.workflow is not None
        while self.cursor < len(self.workflow.steps):
            step = self.workflow.steps[self.cursor]
            items = self.binding.get(step.repeat) if step.repeat else None
            if isinstance(items, list):
                if self.item < len(items):
                    return self.cursor, step, items[self.item]
                self.cursor, self.item = self.cursor + 1, 0
                continue
            if self.item == 0:
                return self.cursor, step, None
            self.cursor, self.item = self.cursor + 1, 0
        return None

    def _skippable(self, step: WorkflowStep) -> bool:
        """A click that proved nothing in the episodes (no check: the agent clicked a name the task gives, say) and
        is not the last step: when its element is not there, or not one, the workflow goes on without it; a step
        that needed it breaks next."""
        assert self.workflow is not None
        return step.action == "click" and not step.checks and not step.repeat \
            and self.cursor + 1 < len(self.workflow.steps)

    def _each(self, index: int, step: WorkflowStep, item: str | None, task: str, history: list[Step],
              observation: Observation) -> Step:
        """A step done on every element its role locator finds on the page (``options["each"]``: "on all posts by
        @x"), one a turn; the workflow goes on once none is left, and breaks if there was none at all."""
        role = next((lo for lo in step.locators if lo.kind == "role"), None)
        bind = self._bind(item)
        value = bind(role.value) if role is not None else None
        context = bind(role.context) if role is not None and role.context else None
        found = [] if role is None or value is None or (role.context and context is None) else \
            find_ids(role, value, context, observation, Grounding(task=task).restates)
        left = [ident for ident in dict.fromkeys(found) if ident not in self.each_done]
        element = describe_id(left[0], observation) if left else None
        if element is None or role is None:
            if not self.each_done:
                where = role.describe() if role is not None else "no role locator"
                return self._broke(index + 1, f"no element for it on the page ({where})", task, history, observation)
            self.cursor, self.item, self.each_done = self.cursor + 1, 0, []
            return self.act(task, history, observation)
        if context and context.casefold() not in (element.context or "").casefold():
            element.context = f"{element.context} {context}".strip()  # found in the row that shows it, as resolve does
        self.each_done.append(left[0])
        self.located.append(role.kind)
        issued = self._issue(index, step, item, None, Located(left[0], element, role), history, observation)
        self.item = 0  # the same step again next turn, until no element is left
        if self.issued is not None:
            self.issued.last_item = False  # its checks hold only once every element is done
        return issued

    def _reveal(self, index: int, step: WorkflowStep, observation: Observation) -> Step | None:
        """A click on the next reveal control of ``step`` not clicked yet that is on the page; when none is left,
        on the next visible element of a reveal kind not clicked yet (None: nothing left to try)."""
        for number, control in enumerate(step.reveal):
            if number in self.revealed:
                continue
            self.revealed.add(number)
            located, _ = resolve(control, observation, lambda text: text)
            if located is None:
                continue
            return self._reveal_click(index, located.id, located.element.name, observation, "a control that "
                                      "revealed such elements in other episodes")
        if len(self.kind_clicked) >= KIND_REVEALS:
            return None
        for kind in step.reveal_kinds:
            ids = [i for i in find_ids(Locator(kind="css", value=kind), kind, None, observation)
                   if i not in self.kind_clicked]
            if ids:
                self.kind_clicked.append(ids[0])
                element = describe_id(ids[0], observation)
                return self._reveal_click(index, ids[0], element.name if element else kind, observation,
                                          f"an element of the kind ({kind}) that revealed such elements in other "
                                          "episodes")
        return None

    def _reveal_click(self, index: int, ident: int, name: str, observation: Observation, why: str) -> Step:
        return Step(url=observation.url, observation=observation.markdown, target=describe_id(ident, observation),
                    action=Action(action_key="click", target_element_id=ident), asked=False,
                    candidate=f"click [id: {ident}] {name!r} (to reveal step {index + 1}'s element)",
                    path=f"workflow:{index + 1}:reveal", reason=f"workflow step {index + 1}: its element is not on "
                    f"the page; {why}")

    def _bind(self, item: str | None) -> Callable[[str], str | None]:
        return lambda text: fill_in(text, self.binding, item)

    def _locate(self, step: WorkflowStep, item: str | None, observation: Observation, wait: float,
                instruction: Callable[[str], bool]) -> tuple[Located | None, Observation, str]:
        if not step.locators:
            return None, observation, ""
        deadline = time.monotonic() + wait
        while True:
            located, tried = resolve(step.locators, observation, self._bind(item), instruction)
            if located is not None:
                self.located.append(located.by.kind)
                return located, observation, ""
            if self.observe is None or time.monotonic() >= deadline:
                break
            time.sleep(LOCATE_POLL)
            observation = self.observe()
        return None, observation, "no locator found the element (" + "; ".join(tried) + ")"

    def _value(self, step: WorkflowStep, item: str | None, history: list[Step], located: Located | None,
               task: str = "", observation: Observation | None = None) -> tuple[str | None, str]:
        ref = step.value
        if ref is None:
            return None, ""
        if ref.source == "constant":
            return ref.constant, ""
        if ref.source == "unbound":
            return None, f"it would type {ref.example!r}, which neither the task nor the page gives: not typed"
        if ref.source == "read":
            value = self._read_value(ref.read, history)
            return (value, "") if value else (None, f"step {(ref.read or 0) + 1} read no value to use")
        if ref.source == "page":  # read again on this page, as the judge reads it
            label, ident = (located.element.label, located.id) if located else ("", None)
            found = [v for v in page_values(task, observation.markdown if observation else "", label, ident)
                     if v.reading == ref.reading]
            return (found[0].value, "") if found else (None, f"the page gives no value ({ref.describe()})")
        bound = fill_in(f"{{{ref.parameter}}}", self.binding, item)
        if not bound:
            return None, f"the task gives no value for {{{ref.parameter}}}"
        return _as_field_value(bound, located), ""

    def _read_value(self, index: int | None, history: list[Step]) -> str | None:
        for step in history:
            if step.path == f"workflow:{index + 1 if index is not None else 0}" and step.action is not None:
                value = step.action.action_kwargs.get("value")
                return None if value in (None, "") else str(value)
        return None

    def _issue(self, index: int, step: WorkflowStep, item: str | None, value: str | None, located: Located | None,
               history: list[Step], observation: Observation) -> Step:
        kwargs: dict[str, Any] = {key: v for key, v in step.options.items() if key not in ("url", "each")}
        if step.action == "read" and located is not None and located.by.kind == "source":
            # which word to read is the new task's ("the 5th word"), not the episode's
            source = read_source(f"read {located.element.context}")
            kwargs.pop("word", None)
            if source is not None and source.word:
                kwargs["word"] = source.word
        if step.action == "fill":
            kwargs["value"] = value
        elif step.action == "select_option":
            kwargs["label"] = value
        elif step.action == "goto":
            kwargs["url"] = step.options.get("url", "")
        action = Action(action_key=step.action, action_kwargs=kwargs,
                        target_element_id=located.id if located else None)
        items = self.binding.get(step.repeat) if step.repeat else None
        last_item = not isinstance(items, list) or self.item + 1 >= len(items)
        self.issued = _Issued(index, self.item, len(history), value, located.id if located else None, last_item)
        self.item += 1
        where = f" on [id: {located.id}] {located.element.name or located.element.role!r} (by {located.by.kind})" \
            if located else ""
        shown = f' "{value}"' if value is not None else ""
        grounded = [value] if value else ([located.element.name] if located and located.element.name else [])
        return Step(url=observation.url, observation=observation.markdown, action=action, target=located.element
                    if located else None, candidate=f"{step.action}{shown}{where}", grounded=grounded or None,
                    reason=f"workflow {self.workflow.workflow_id if self.workflow else ''} step {index + 1}: "
                           f"{step.describe()}", path=f"workflow:{index + 1}", asked=False, response="")

    def _stop(self, observation: Observation, answer: str | None, reason: str) -> Step:
        return Step(url=observation.url, observation=observation.markdown, reason=reason, path="workflow:stop",
                    action=Action(action_key="stop", action_kwargs={"answer": answer} if answer else {}), asked=False)

    # -- checks and breaking -----------------------------------------------------------------------------------

    def _check(self, task: str, history: list[Step], observation: Observation) -> str:
        """Why the step just done did not take (empty: it did): an error, a state not held, a criterion not verified."""
        issued, workflow = self.issued, self.workflow
        if issued is None or workflow is None or issued.position >= len(history):
            return ""
        done = history[issued.position]
        step = workflow.steps[issued.index]
        if done.error:
            return f"the browser did not take it: {done.error}"
        element = next((e for e in observation.elements if e.id == issued.target), None)
        if element is not None and not element.widget and element.input_type != "password":
            if step.action == "fill" and issued.value is not None and element.role == "textbox" \
                    and not same_date_or_value(element.value or "", issued.value):
                return f"the field holds {element.value!r}, not {issued.value!r}"
            if step.action == "select_option" and issued.value is not None \
                    and normalize_text(element.value or "").casefold() != normalize_text(issued.value).casefold():
                return f"the list shows {element.value!r}, not {issued.value!r}"
            if step.action == "set_checked" and element.checked is not None \
                    and element.checked != bool(step.options.get("checked", True)):
                return f"the box is {'checked' if element.checked else 'unchecked'}"
        if not step.checks or not issued.last_item:
            return ""
        criteria = task_criteria(task)
        if len(criteria) != workflow.criteria:
            return ""
        so_far = Trajectory(task=task, policy="candidates", start_url="", steps=list(history),
                            final_observation=observation.markdown)
        verdicts = verify_criteria(task, criteria, so_far)
        failed = [verdicts[c] for c in step.checks if c < len(verdicts) and verdicts[c].status != "verified"]
        if failed:
            return f"the check {failed[0].criterion!r} does not hold ({failed[0].why or failed[0].status})"
        return ""

    def _broke(self, number: int, why: str, task: str, history: list[Step], observation: Observation) -> Step:
        self.broken = (number, why)
        where = f"workflow step {number}" if number else "workflow"
        if self.fallback is not None:
            self.handed_over = True
            step = self._delegate(task, history, observation)
            step.reason = f"{where} broke ({why}); the agent took over: {step.reason or ''}"
            return step
        step = self._stop(observation, None, f"{where} broke")
        step.error, step.path = f"{where} broke: {why}", "workflow:broken"
        return step

    def _delegate(self, task: str, history: list[Step], observation: Observation) -> Step:
        assert self.fallback is not None
        step = self.fallback.act(task, history, observation)
        step.path = f"fallback:{step.path or 'agent'}"
        return step


def _as_field_value(value: str, located: Located | None) -> str:
    """A date or time as the field takes it (ISO for a native date input), anything else as the task wrote it."""
    if located is None:
        return value
    found = [v for v in task_values(value) if v.kind in ("date", "time") and v.text == value.strip()]
    return found[0].for_field(located.element.input_type) if found else value
