"""Action parsing (incl. malformed output), the one retry, invalid-action feedback and the episode caps."""

from __future__ import annotations

import pytest

from scrapesmith.insta.agent import Agent, AgentConfig, parse_action, run_episode
from scrapesmith.insta.views import Action, Observation, StepOutcome
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMOutputError, LLMRequest

CLICK = '```json\n{"action_key": "click", "action_kwargs": {}, "target_element_id": 5}\n```'
STOP = '```json\n{"action_key": "stop", "action_kwargs": {"answer": "42"}, "target_element_id": null}\n```'


def test_parse_action_takes_first_fenced_block_after_reasoning():
    text = f"I should open the sales page.\n\n{CLICK}\n\nLater maybe:\n{STOP}"
    assert parse_action(text) == Action(action_key="click", action_kwargs={}, target_element_id=5)


def test_parse_action_accepts_alias_and_string_id_and_repairs_trailing_comma():
    text = '```json\n{"action_key": "select", "action_kwargs": {"label": "red",}, "target_element_id": "67"}\n```'
    action = parse_action(text)
    assert (action.action_key, action.action_kwargs, action.target_element_id) == ("select_option", {"label": "red"}, 67)


def test_parse_action_accepts_unterminated_last_fence():
    action = parse_action('plan...\n```json\n{"action_key": "go_back", "action_kwargs": {}}')
    assert action.action_key == "go_back" and action.target_element_id is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("I will click the link.", "no fenced JSON"),
        ("```json\n[1, 2]\n```", "not a JSON object"),
        ('```json\n{"action_key": "teleport", "action_kwargs": {}}\n```', "unknown action_key"),
        ('```json\n{"action_key": "click", "action_kwargs": {}}\n```', "needs a target_element_id"),
        ('```json\n{"action_key": "fill", "action_kwargs": {}, "target_element_id": 3}\n```', "value"),
        ('```json\n{"action_key": "click", "action_kwargs": {}, "target_element_id": "x"}\n```', "integer"),
        ('```json\n{"action_key": "goto", "action_kwargs": "u", "target_element_id": null}\n```', "JSON object"),
    ],
)
def test_parse_action_rejects_malformed_output_with_a_reason(text, reason):
    with pytest.raises(LLMOutputError, match=reason):
        parse_action(text)


def _observation() -> Observation:
    return Observation(url="http://127.0.0.1/a", markdown="# Shop\n\n[id: 5] Sales link")


def test_agent_retries_once_and_feeds_the_parse_error_back():
    replies = iter(["Let me think, no action here.", f"Sorry.\n{CLICK}"])
    llm = ScriptedLLM(lambda request: next(replies))
    step = Agent(llm, AgentConfig(reasoning_words=20)).act("open sales", [], _observation())
    assert step.action is not None and step.action.target_element_id == 5 and step.retried
    retry_prompt = llm.requests[1].messages[-1].content
    assert "no fenced JSON" in retry_prompt and llm.calls == 2


def test_agent_records_an_invalid_step_after_the_retry_fails():
    llm = ScriptedLLM(lambda request: "no json at all")
    step = Agent(llm).act("open sales", [], _observation())
    assert step.action is None and step.error.startswith("invalid action") and llm.calls == 2


def test_agent_prompt_shows_task_page_and_only_the_last_five_steps():
    seen: list[LLMRequest] = []

    def respond(request: LLMRequest) -> str:
        seen.append(request)
        return CLICK

    agent = Agent(ScriptedLLM(respond))
    history = [agent.act("t", [], Observation(url=f"http://127.0.0.1/p{i}", markdown="x")) for i in range(7)]
    agent.act("find the sales page", history, _observation())
    user = seen[-1].messages[1].content
    assert "find the sales page" in user and "[id: 5] Sales link" in user
    assert "/p1\n" not in user and "/p2\n" in user and "/p6\n" in user
    assert "200 word" in seen[-1].messages[0].content


class CountingEnv:
    """A tiny in-memory environment: ids 1..3 exist, anything else is an error fed back to the agent."""

    def __init__(self, done_after: int | None = None) -> None:
        self.actions: list[Action] = []
        self.done_after = done_after

    def reset(self, url: str) -> Observation:
        return Observation(url=url, markdown="[id: 1] a\n[id: 2] b")

    def step(self, action: Action) -> StepOutcome:
        self.actions.append(action)
        error = None if action.target_element_id in (1, 2, 3) else f"no element with id {action.target_element_id}"
        done = self.done_after is not None and len(self.actions) >= self.done_after
        return StepOutcome(observation=Observation(url="http://127.0.0.1/next", markdown="next"), error=error,
                           done=done)


def test_episode_feeds_back_invalid_element_and_stops_on_stop_action():
    replies = iter([CLICK, STOP])
    llm = ScriptedLLM(lambda request: next(replies))
    env = CountingEnv()
    trajectory = run_episode(env, Agent(llm), "task", "http://127.0.0.1/")
    assert trajectory.stop_reason == "stop" and trajectory.answer == "42"
    assert trajectory.steps[0].error == "no element with id 5"
    assert "no element with id 5" in llm.requests[1].messages[1].content


def test_episode_ends_at_the_action_cap_even_when_every_answer_is_invalid():
    llm = ScriptedLLM(lambda request: "I am confused")
    trajectory = run_episode(CountingEnv(), Agent(llm), "task", "http://127.0.0.1/", max_actions=3)
    assert trajectory.stop_reason == "max_actions" and len(trajectory.steps) == 3
    assert trajectory.invalid_steps == 3 and llm.calls == 6


def test_episode_respects_wall_time_cap():
    ticks = iter(range(100))
    llm = ScriptedLLM(lambda request: CLICK.replace("5", "1"))
    trajectory = run_episode(CountingEnv(), Agent(llm), "t", "http://127.0.0.1/", wall_time=2.5,
                             clock=lambda: float(next(ticks)))
    assert trajectory.stop_reason == "wall_time" and len(trajectory.steps) == 2


def test_episode_stops_when_environment_reports_done():
    llm = ScriptedLLM(lambda request: CLICK.replace("5", "2"))
    trajectory = run_episode(CountingEnv(done_after=2), Agent(llm), "t", "http://127.0.0.1/")
    assert trajectory.stop_reason == "stop" and len(trajectory.steps) == 2
