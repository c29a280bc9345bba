"""Data of the InSTA pipeline: actions, steps, trajectories, judgements, tasks and per-site results.

Kept apart from behaviour (browser-use's ``views.py`` split) so the agent, judge, proposer, pipeline and
exporter share one vocabulary and every record round-trips through JSON unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from scrapesmith.insta.safety.views import SafetyVerdict

#: The seed's action set (section 3, Appendix G); ``select`` is accepted as an alias of ``select_option``.
ACTION_KEYS = ("click", "hover", "scroll", "fill", "select_option", "set_checked", "go_back", "goto", "stop")
ACTION_ALIASES = {"select": "select_option", "check": "set_checked", "back": "go_back", "navigate": "goto"}
#: Actions that operate on an element of the current observation and therefore need ``target_element_id``.
TARGETED_ACTIONS = ("click", "hover", "fill", "select_option", "set_checked")
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


class Trajectory(BaseModel):
    task: str
    start_url: str
    steps: list[Step] = Field(default_factory=list)
    stop_reason: Literal["stop", "max_actions", "wall_time", "error"] = "stop"
    answer: str | None = None
    final_url: str = ""
    final_observation: str = ""
    seconds: float = 0.0

    @property
    def invalid_steps(self) -> int:
        return sum(1 for step in self.steps if step.error)


class Judgement(BaseModel):
    """The judge's three scores in [0, 1] (section 5.1); ``response`` keeps its reasoning trace."""

    success: float = Field(ge=0.0, le=1.0)
    efficiency: float = Field(ge=0.0, le=1.0)
    self_correction: float = Field(ge=0.0, le=1.0)
    response: str = ""

    @property
    def confidence(self) -> float:
        """``2 * |r - 0.5|``: the seed finds accuracy rises with it (93% of conf = 1 verdicts are right)."""
        return 2.0 * abs(self.success - 0.5)

    @property
    def succeeded(self) -> bool:
        return self.success > 0.5


class ProposedTask(BaseModel):
    """Phase 1 of the proposer: a task for a domain, or ``task=None`` when the safety filter said N/A."""

    domain: str
    task: str | None
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


class SiteResult(BaseModel):
    """Everything the pipeline produced for one site; one JSON line in a shard."""

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


class Observation(BaseModel):
    """What the agent sees of the page: its URL and the markdown view with ``[id: N]`` elements."""

    url: str
    markdown: str
    truncated: bool = False
    screenshot: str | None = None


class StepOutcome(BaseModel):
    """How the environment took one action: the next observation, an error to feed back, and doneness."""

    observation: Observation
    error: str | None = None
    done: bool = False


@dataclass
class ExportResult:
    """How many records of each kind were written, and how many torn store lines were skipped."""

    counts: dict[str, int]
    torn_lines: int = 0
