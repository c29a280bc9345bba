"""Data of the InSTA pipeline: actions, steps, trajectories, judgements, tasks and per-site results.

Kept apart from behaviour (browser-use's ``views.py`` split) so the agent, judge, proposer, pipeline and
exporter share one vocabulary and every record round-trips through JSON unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from scrapesmith.insta.safety.views import SafetyVerdict

#: The seed's action set (section 3, Appendix G), plus ``read`` (a value off the page for the next steps,
#: ``insta.reading``) and ``wait`` (``seconds``, bounded; with a target, until it is shown and enabled:
#: ``insta.timing``); ``select`` is accepted as an alias of ``select_option``.
ACTION_KEYS = ("click", "hover", "scroll", "fill", "select_option", "set_checked", "go_back", "goto", "stop",
               "read", "wait")
ACTION_ALIASES = {"select": "select_option", "check": "set_checked", "back": "go_back", "navigate": "goto"}
#: Actions that operate on an element of the current observation and therefore need ``target_element_id``.
TARGETED_ACTIONS = ("click", "hover", "fill", "select_option", "set_checked", "read")
#: Keyword arguments each action needs (others are ignored).
REQUIRED_KWARGS: dict[str, tuple[str, ...]] = {
    "fill": ("value",),
    "select_option": ("label",),
    "set_checked": ("checked",),
    "goto": ("url",),
}


class Action(BaseModel):
    """One function call on the browser, in the seed's JSON format."""

    action_key: str
    action_kwargs: dict[str, Any] = Field(default_factory=dict)
    target_element_id: int | None = None

    @property
    def is_stop(self) -> bool:
        return self.action_key == "stop"

    @property
    def answer(self) -> str | None:
        value = self.action_kwargs.get("answer") if self.is_stop else None
        return None if value is None else str(value)


class Element(BaseModel):
    """One element an agent can act on, read from the live page (``insta.elements``).

    ``role`` is ``link``, ``button``, ``textbox``, ``select``, ``checkbox``, ``radio``, an ARIA role, ``clickable``
    (interactive by markup, or under a pointer cursor), ``text`` (plain text the task names, offered as a
    click target) or ``icon`` (an element without text whose class, title or alt names what the task names);
    ``shown`` says whether its ``[id: N]`` is in the observation the model reads (not cut by the token cap).
    """

    id: int
    tag: str
    role: str
    label: str = ""
    text: str = ""
    value: str | None = None
    input_type: str | None = None
    hint: str = Field(default="", description="the element's id, name and placeholder: words that name a field")
    options: list[str] = Field(default_factory=list)
    checked: bool | None = None
    expanded: str | None = None
    focused: bool = False
    shown: bool = True
    context: str = Field(default="", description="text around it, for elements whose name repeats (rows, icons)")
    widget: str | None = Field(default=None, description="slider or spinbutton: a control set by stepping, by "
                               "its role, input type or classes (insta.widgets)")
    readonly: bool = False
    looks: str = Field(default="", description="what it looks like (insta.perception): size, colour, shape, position")
    seen: dict[str, Any] | None = Field(default=None, description="the same, as attributes (Percept.seen): what the "
                                        "judge checks a description against")

    @property
    def name(self) -> str:
        """What a user would call it: its text, else its label, else its value."""
        return self.text or self.label or (self.value or "")


class Step(BaseModel):
    """One turn of the agent: what it saw, what it wrote, the action parsed and how the browser took it.

    ``error`` holds why the output or the action was invalid; it is shown to the agent on the next turn
    (the seed feeds failures back) and the step still counts against the action budget.
    """

    url: str
    observation: str
    response: str = ""
    action: Action | None = None
    error: str | None = None
    retried: bool = False
    screenshot: str | None = Field(default=None, description="PNG of the page the agent saw, relative to the run")
    reason: str | None = Field(default=None, description="why the candidate policy chose this action")
    candidate: str | None = Field(default=None, description="the chosen candidate, in the words shown to the model")
    candidates: list[str] | None = Field(default=None, description="the candidate lines offered (candidate policy)")
    grounded: list[str] | None = Field(default=None, description="the task phrases the chosen candidate grounds")
    target: Element | None = Field(default=None, description="the element the chosen candidate acts on, as listed "
                                   "(its name, role, label, context): what the evidence judge matches criteria to")
    asked: bool | None = Field(default=None, description="candidate policy: the model chose (a tie, a value to "
                               "write, an answer) rather than the grounding alone; None for the paper policy")
    path: str | None = Field(default=None, description="candidate policy: who chose and why — program (the "
                             "evidence decided), model:<why> (asked: tie, value, answer, unsure) or program:<why> "
                             "(the model would have been asked, there was none)")
    confidence: float | None = Field(default=None, description="the evidence's confidence in the program's pick "
                                     "(insta.decide.confidence)")
    clause: str | None = Field(default=None, description="the task's clause (checklist item) this step serves")
    selectors: dict[str, str] | None = Field(default=None, description="how to find the element acted on again "
                                             "(id, name, css, xpath), recorded by the environment: what a "
                                             "workflow compiled from the episode locates it by (insta.workflow)")


class Trajectory(BaseModel):
    task: str
    policy: Literal["paper", "candidates"] = "paper"
    start_url: str
    steps: list[Step] = Field(default_factory=list)
    stop_reason: Literal["stop", "max_actions", "wall_time", "error", "repeated", "unchanged"] = Field(
        default="stop", description="stop: the agent stopped; max_actions / wall_time: it used its budget; repeated / "
        "unchanged: stopped early, the same action again or a page that stopped changing (insta.episode)")
    answer: str | None = None
    final_url: str = ""
    final_observation: str = ""
    seconds: float = 0.0

    @property
    def invalid_steps(self) -> int:
        return sum(1 for step in self.steps if step.error)


class CriterionCheck(BaseModel):
    """One criterion of the evidence judge: the model's verdict, its quote, and whether the quote is real."""

    criterion: str
    holds: bool = False
    evidence: str = ""
    verified: bool = Field(default=False, description="the evidence occurs in the final page or the action log")
    status: Literal["verified", "refuted", "unsure", ""] = Field(
        default="", description="the program's own check of the action log (insta.verify); unsure ones go to the model")
    decided_by: Literal["program", "model", ""] = ""
    why: str = Field(default="", description="why the program could not verify it")

    @property
    def met(self) -> bool:
        return self.holds and self.verified


class Judgement(BaseModel):
    """The judge's three scores in [0, 1] (section 5.1); ``response`` keeps its reasoning trace.

    ``kind`` says which judge: ``paper`` (the seed's free-form scores) or ``evidence`` (criteria checked one
    by one with quoted evidence, ``criteria``; success is 1 only when every criterion is met).
    """

    success: float = Field(ge=0.0, le=1.0)
    efficiency: float = Field(ge=0.0, le=1.0)
    self_correction: float = Field(ge=0.0, le=1.0)
    response: str = ""
    kind: Literal["paper", "evidence"] = "paper"
    criteria: list[CriterionCheck] = Field(default_factory=list)

    @property
    def confidence(self) -> float:
        """``2 * |r - 0.5|``: the seed finds accuracy rises with it (93% of conf = 1 verdicts are right)."""
        return 2.0 * abs(self.success - 0.5)

    @property
    def succeeded(self) -> bool:
        return self.success > 0.5


class TaskGoal(BaseModel):
    """What a proposed task leads to (``insta.goals``): the value shown beside ``label`` for the record
    ``entity`` on ``page``, reached from the landing page by following the link texts of ``route``."""

    page: str
    entity: str
    label: str
    value: str
    route: list[str] = Field(default_factory=list)
    heading: str = Field(default="", description="the page's own heading (the record a detail page is about)")


class ProposedTask(BaseModel):
    """Phase 1 of the proposer: a task for a domain, or ``task=None`` when the site is unsafe or empty
    (``reason`` says which)."""

    domain: str
    task: str | None
    goal: TaskGoal | None = Field(default=None, description="what the task leads to, checked by the judge")
    reason: str = Field(default="", description="why there is no task (N/A), or how the task was chosen")
    rejected: list[str] = Field(default_factory=list, description="proposals rejected as vague, with why")
    pages_read: list[str] = Field(default_factory=list, description="the pages the proposer read")
    system: str = Field(default="insta_propose", description="the prompt the accepted answer was given "
                        "(insta_propose, or insta_propose_choose: a choice among the program's tasks)")
    response: str = ""
    prompt: str = Field(default="", description="the user message, so the call can be exported for training")
    examples: list[str] = Field(default_factory=list, description="domains of the in-context examples shown")

    @property
    def is_safe(self) -> bool:
        return self.task is not None


class RefinedTask(BaseModel):
    """Phase 2 of the proposer: a harder task grounded in what the agent saw (Appendix E/G)."""

    proposed_task: str
    steps: list[str] = Field(default_factory=list)
    criteria: str | list[str] = ""
    response: str = ""


class SiteTask(BaseModel):
    """A further task of a site (``PipelineConfig.tasks_per_site`` > 1): its proposal, episode and verdicts."""

    proposal: ProposedTask
    trajectory: Trajectory | None = None
    judgement: Judgement | None = None
    refined: RefinedTask | None = None
    seconds: float = 0.0


class SiteResult(BaseModel):
    """Everything the pipeline produced for one site; one JSON line in a shard. The site's first task is in
    ``proposal`` … ``refined``; the further ones, each distinct, in ``more_tasks``."""

    site: str
    url: str
    status: Literal["ok", "unsafe", "failed"]
    error: str | None = None
    safety: SafetyVerdict | None = Field(default=None, description="the safety filter's verdict, before phase 1")
    proposal: ProposedTask | None = None
    trajectory: Trajectory | None = None
    judgement: Judgement | None = None
    refined: RefinedTask | None = None
    seconds: float = 0.0
    llm_calls: int = 0
    worker: str = ""
    more_tasks: list[SiteTask] = Field(default_factory=list)

    def per_task(self) -> list[SiteResult]:
        """One result per task of the site: itself with its first task, then a copy for each further task
        (its ``more_tasks`` empty), so whatever reads one task of a result reads every task of a site."""
        return [self, *(self.model_copy(update={"proposal": task.proposal, "trajectory": task.trajectory,
                                                "judgement": task.judgement, "refined": task.refined,
                                                "more_tasks": []}) for task in self.more_tasks)]


class ActionCandidate(BaseModel):
    """One action the program offers the model: ``id`` is what the model answers with.

    ``free`` candidates need text the page does not hold (an answer, a computed value); the model writes it.
    """

    id: str
    action: Action
    text: str
    score: float = 0.0
    grounded: list[str] = Field(default_factory=list)
    free: bool = False
    element: Element | None = Field(default=None, description="the element acted on (None: scroll, back, stop)")


class Observation(BaseModel):
    """What the agent sees of the page: its URL and the markdown view with ``[id: N]`` elements; ``elements``
    are the actionable elements behind it, with live values and state (the candidate policy reads them)."""

    url: str
    markdown: str
    truncated: bool = False
    screenshot: str | None = None
    elements: list[Element] = Field(default_factory=list)
    _tree: Any = PrivateAttr(default=None)
    _percepts: list[Any] = PrivateAttr(default_factory=list)
    _perception_error: str | None = PrivateAttr(default=None)

    def attach_tree(self, tree: Any) -> None:
        """Keep the parsed page (not serialised): the candidate policy looks for text the task names in it."""
        self._tree = tree

    def attach_percepts(self, percepts: list[Any], error: str | None = None) -> None:
        """Keep what the page looks like (``insta.perception.Percept`` s, not serialised), or why it could not be
        read."""
        self._percepts, self._perception_error = list(percepts), error

    @property
    def perception_error(self) -> str | None:
        return self._perception_error

    @property
    def percepts(self) -> list[Any]:
        return self._percepts

    @property
    def tree(self) -> Any:
        return self._tree


class StepOutcome(BaseModel):
    """How the environment took one action: the next observation, an error to feed back, and doneness."""

    observation: Observation
    error: str | None = None
    done: bool = False
    value: str | None = Field(default=None, description="what a ``read`` step read off the page")
    selectors: dict[str, str] | None = Field(default=None, description="the acted-on element's id, name, css and "
                                             "xpath on the page it was acted on")


@dataclass
class ExportResult:
    """How many records of each kind were written, and how many torn store lines were skipped."""

    counts: dict[str, int]
    torn_lines: int = 0
