"""An episode within its budget: a step cap, a time cap, and an early stop when the agent goes round in circles.

:func:`~.agent.run_episode` stops at the agent's own stop, the step cap or the wall-time cap. An agent that
clicks the same thing again, or stands on a page that no longer changes, would spend the rest of its budget
there; :class:`EarlyStop` wraps the policy and ends the episode first:

* ``repeated``: the last :data:`REPEATS` actions are one action (same kind, element and arguments) on the
  same page address;
* ``unchanged``: the page (address and the markdown the agent reads, live values included) has been the same
  before each of the last :data:`UNCHANGED_STEPS` actions and is the same now.

The trajectory's ``stop_reason`` says which (``repeated``, ``unchanged``), as it says ``max_actions`` or
``wall_time`` for an episode that used its budget; only ``stop`` is the agent's own end, and only such an
episode can be judged a success.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from scrapesmith.insta.agent import Environment, Policy, run_episode
from scrapesmith.insta.views import Action, Observation, Step, Trajectory

REPEATS = 2
UNCHANGED_STEPS = 3
EARLY = "early:"


@dataclass(frozen=True)
class EpisodeBudget:
    max_actions: int = 12
    wall_time: float = 120.0
    repeats: int = REPEATS
    unchanged_steps: int = UNCHANGED_STEPS


def _signature(step: Step) -> str:
    action = step.action
    return "" if action is None else json.dumps([action.action_key, action.target_element_id,
                                                 action.action_kwargs], sort_keys=True, default=str)


def early_stop_reason(history: list[Step], observation: Observation, budget: EpisodeBudget) -> str | None:
    """Why the episode should end now, or ``None``."""
    last = history[-budget.repeats:]
    if len(last) == budget.repeats and _signature(last[0]) and len({_signature(s) for s in last}) == 1 \
            and all(s.url == observation.url for s in last):
        return "repeated"
    last = history[-budget.unchanged_steps:]
    if len(last) == budget.unchanged_steps and all(
            s.url == observation.url and s.observation == observation.markdown for s in last):
        return "unchanged"
    return None


class EarlyStop:
    """Wraps a policy: asks it for the next action unless :func:`early_stop_reason` ends the episode."""

    def __init__(self, inner: Policy, budget: EpisodeBudget) -> None:
        self.inner = inner
        self.budget = budget
        self.name = getattr(inner, "name", "")

    def act(self, task: str, history: list[Step], observation: Observation) -> Step:
        why = early_stop_reason(history, observation, self.budget)
        if why is None:
            return self.inner.act(task, history, observation)
        return Step(url=observation.url, observation=observation.markdown, action=Action(action_key="stop"),
                    path=f"{EARLY}{why}", reason=f"stopped early: {why}")


def run_within_budget(env: Environment, policy: Policy, task: str, start_url: str, budget: EpisodeBudget
                      ) -> Trajectory:
    """:func:`run_episode` with the caps of ``budget`` and the early stops of :class:`EarlyStop`."""
    trajectory = run_episode(env, EarlyStop(policy, budget), task, start_url, max_actions=budget.max_actions,
                             wall_time=budget.wall_time)
    last = trajectory.steps[-1] if trajectory.steps else None
    if last is not None and last.path and last.path.startswith(EARLY):
        trajectory.stop_reason, trajectory.answer = last.path[len(EARLY):], None  # type: ignore[assignment]
    return trajectory
