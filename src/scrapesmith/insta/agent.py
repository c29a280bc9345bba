"""The language-model agent of section 3: reasoning trace, then the first fenced JSON block as the action.

``parse_action`` is the seed's ``f^{text->act}``; :class:`Agent` builds the prompt from the task, the last
five steps (their URL, action and any error fed back) and the current page, and gives the model one
more try when its answer does not parse. :func:`run_episode` drives an environment to a stop, the action
cap or the wall-time cap; the environment knows nothing about the agent and vice versa.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from scrapesmith.insta.parsing import first_fenced_json
from scrapesmith.insta.views import (
    ACTION_ALIASES,
    ACTION_KEYS,
    REQUIRED_KWARGS,
    TARGETED_ACTIONS,
    Action,
    Observation,
    Step,
    StepOutcome,
    Trajectory,
)
from scrapesmith.llm import LLM, ChatMessage, LLMOutputError, LLMRequest
from scrapesmith.llm import render_prompt as render

HISTORY_STEPS = 5
MAX_ACTIONS = 30


class InvalidAction(LLMOutputError):
    """The response parsed as JSON but is not an action of the seed's action set."""


def parse_action(text: str) -> Action:
    """Parse and validate the action in a response; raise :class:`LLMOutputError` with a reason to feed back."""
    payload = first_fenced_json(text)
    key = str(payload.get("action_key", "")).strip()
    key = ACTION_ALIASES.get(key, key)
    kwargs = payload.get("action_kwargs") or {}
    if not isinstance(kwargs, dict):
        raise InvalidAction("'action_kwargs' must be a JSON object", raw=text)
    target = payload.get("target_element_id")
    if key not in ACTION_KEYS:
        raise InvalidAction(f"unknown action_key {key!r}; use one of {', '.join(ACTION_KEYS)}", raw=text)
    if target is not None:
        try:
            target = int(target)
        except (TypeError, ValueError):
            raise InvalidAction(f"target_element_id must be an integer, got {target!r}", raw=text) from None
    if key in TARGETED_ACTIONS and target is None:
        raise InvalidAction(f"'{key}' needs a target_element_id from the page", raw=text)
    missing = [name for name in REQUIRED_KWARGS.get(key, ()) if name not in kwargs]
    if missing:
        raise InvalidAction(f"'{key}' needs action_kwargs {', '.join(missing)}", raw=text)
    return Action(action_key=key, action_kwargs=kwargs, target_element_id=target)


def action_json(action: Action | None) -> str:
    return "(none)" if action is None else json.dumps(action.model_dump(), ensure_ascii=False)


def format_history(steps: list[Step], limit: int = HISTORY_STEPS) -> str:
    """The last ``limit`` steps as URL, action and feedback: the pages themselves stay out to save tokens."""
    if not steps:
        return "(no previous steps)"
    first = max(0, len(steps) - limit)
    lines = []
    for number, step in enumerate(steps[first:], start=first + 1):
        feedback = f"error: {step.error}" if step.error else "ok"
        lines.append(f"{number}. at {step.url}\n   action: {action_json(step.action)}\n   result: {feedback}")
    return "\n".join(lines)


@dataclass(frozen=True)
class AgentConfig:
    reasoning_words: int = 200
    history_steps: int = HISTORY_STEPS
    max_tokens: int = 512
    temperature: float = 0.5


def agent_system_prompt(config: AgentConfig) -> str:
    return render("insta_agent", reasoning_words=config.reasoning_words)


def agent_user_prompt(task: str, history: list[Step], observation: Observation, config: AgentConfig) -> str:
    """The task, the last steps and the current page; the exporter rebuilds training prompts with it."""
    return (
        f"## Task\n\n{task}\n\n## Previous Steps\n\n{format_history(history, config.history_steps)}"
        f"\n\n## Current Webpage: {observation.url}\n\n{observation.markdown}\n\n"
        "Write your plan, then the next action as JSON in a fenced code block."
    )


class Agent:
    """Chooses the next action with an LLM, as in the seed's equation (1)."""

    def __init__(self, llm: LLM, config: AgentConfig | None = None) -> None:
        self.llm = llm
        self.config = config or AgentConfig()

    def system_prompt(self) -> str:
        return agent_system_prompt(self.config)

    def user_prompt(self, task: str, history: list[Step], observation: Observation) -> str:
        return agent_user_prompt(task, history, observation, self.config)

    def act(self, task: str, history: list[Step], observation: Observation) -> Step:
        """One turn; a response that does not parse gets one retry with the error, then counts as invalid."""
        messages = [
            ChatMessage(role="system", content=self.system_prompt()),
            ChatMessage(role="user", content=self.user_prompt(task, history, observation)),
        ]
        response = self._complete(messages)
        try:
            action = parse_action(response)
            return Step(url=observation.url, observation=observation.markdown, response=response, action=action)
        except LLMOutputError as first_error:
            messages += [
                ChatMessage(role="assistant", content=response),
                ChatMessage(role="user", content=f"Your action was invalid: {first_error}. Reply again with "
                            "the next action as JSON in a fenced code block."),
            ]
        retry = self._complete(messages)
        try:
            action = parse_action(retry)
            return Step(url=observation.url, observation=observation.markdown, response=retry, action=action,
                        retried=True)
        except LLMOutputError as second_error:
            return Step(url=observation.url, observation=observation.markdown, response=retry,
                        error=f"invalid action: {second_error}", retried=True)

    def _complete(self, messages: list[ChatMessage]) -> str:
        request = LLMRequest(messages=messages, temperature=self.config.temperature,
                             max_tokens=self.config.max_tokens, stage="insta.agent")
        return self.llm.complete(request).text


class Environment(Protocol):
    """What :func:`run_episode` needs from an environment (``insta.env.BrowserEnv`` and MiniWoB's)."""

    def reset(self, url: str) -> Observation: ...

    def step(self, action: Action) -> StepOutcome: ...


class Policy(Protocol):
    def act(self, task: str, history: list[Step], observation: Observation) -> Step: ...


def run_episode(
    env: Environment,
    policy: Policy,
    task: str,
    start_url: str,
    max_actions: int = MAX_ACTIONS,
    wall_time: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    first_observation: Observation | None = None,
) -> Trajectory:
    """Run ``policy`` from ``start_url`` until it stops, the environment is done, or a cap is hit.

    Invalid actions are recorded with their error and count against ``max_actions``, so a model that
    never produces a valid action still ends. ``first_observation`` skips the reset when the caller
    already started the episode (MiniWoB reads its task from the started page).
    """
    started = clock()
    trajectory = Trajectory(task=task, start_url=start_url, stop_reason="max_actions",
                            policy="candidates" if getattr(policy, "name", "") == "candidates" else "paper")
    observation = first_observation or env.reset(start_url)
    for _ in range(max_actions):
        if wall_time is not None and clock() - started > wall_time:
            trajectory.stop_reason = "wall_time"
            break
        step = policy.act(task, trajectory.steps, observation)
        step.screenshot = step.screenshot or observation.screenshot
        trajectory.steps.append(step)
        if step.action is None:
            continue
        if step.action.is_stop:
            trajectory.stop_reason, trajectory.answer = "stop", step.action.answer
            break
        outcome = env.step(step.action)
        step.error, observation = outcome.error, outcome.observation
        if outcome.value is not None:  # a read: what it read is part of the step, for the next ones and the judge
            step.action.action_kwargs["value"] = outcome.value
        step.selectors = outcome.selectors or step.selectors
        if outcome.done:
            trajectory.stop_reason = "stop"
            break
    trajectory.final_url, trajectory.final_observation = observation.url, observation.markdown
    trajectory.seconds = clock() - started
    return trajectory
