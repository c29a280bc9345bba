"""MiniWoB++ episodes in our browser environment, driven by a scripted policy that reads the markdown.

The policy only sees what the agent would see (task text and markdown observation) and answers with the
agent's JSON actions; the reward comes from the task page's own JavaScript.
"""

from __future__ import annotations

import json
import re

import pytest

from scrapesmith.bench.miniwob import MiniwobEnv, evaluate_miniwob, read_state, serve_miniwob
from scrapesmith.insta.agent import parse_action
from scrapesmith.insta.views import Observation, Step

pytest.importorskip("miniwob")
pytestmark = pytest.mark.browser


def _id_of(markdown: str, description: str) -> int:
    match = re.search(r"\[id: (\d+)\] " + description, markdown)
    assert match, f"{description!r} not in {markdown!r}"
    return int(match.group(1))


def _step(observation: Observation, key: str, target: int | None = None, **kwargs) -> Step:
    response = "```json\n" + json.dumps({"action_key": key, "action_kwargs": kwargs,
                                         "target_element_id": target}) + "\n```"
    return Step(url=observation.url, observation=observation.markdown, response=response,
                action=parse_action(response))


class ScriptedMiniwobPolicy:
    """Hand-written rules for click-button, enter-text and click-checkboxes."""

    def act(self, task: str, history: list[Step], observation: Observation) -> Step:
        page = observation.markdown
        if task.startswith("Click on the"):
            label = re.search(r'"(.+)"', task).group(1)
            return _step(observation, "click", _id_of(page, re.escape(label) + " button"))
        if task.startswith("Enter"):
            if not history:
                word = re.search(r'"(.+)"', task).group(1)
                return _step(observation, "fill", _id_of(page, r'"[^"]*" \(text input\)'), value=word)
            return _step(observation, "click", _id_of(page, "Submit button"))
        wanted = [w.strip() for w in re.sub(r"^Select (.*) and click Submit\.$", r"\1", task).split(",")]
        wanted = [] if wanted == ["nothing"] else wanted
        if len(history) < len(wanted):
            label = wanted[len(history)]
            return _step(observation, "set_checked", _id_of(page, f'"{re.escape(label)}" \\(checkbox\\)'),
                         checked=True)
        return _step(observation, "click", _id_of(page, "Submit button"))


def test_scripted_policy_reaches_reward_one_on_three_tasks(browser_session):
    result = evaluate_miniwob(browser_session, lambda env: ScriptedMiniwobPolicy(),
                              ["click-button", "enter-text", "click-checkboxes"], episodes=2, seed=3)
    rewards = {(case["task"], case["seed"]): case["reward"] for case in result.cases}
    assert all(reward == 1.0 for reward in rewards.values()), result.cases
    assert result.summary["mean_reward"] == 1.0 and result.summary["episodes"] == 6
    # each case keeps the task and the actions taken, so judges can be compared offline on the same episodes
    assert all(case["utterance"] and case["actions"][0]["action_key"] for case in result.cases)


def test_wrong_click_earns_the_page_negative_reward(browser_session):
    with serve_miniwob() as base_url:
        env = MiniwobEnv(browser_session)
        for seed in range(5, 15):  # find a generated problem with more than one button
            observation = env.reset(f"{base_url}/click-button.html?seed={seed}")
            label = re.search(r'"(.+)"', env.state.utterance).group(1)
            others = [int(i) for i, text in re.findall(r"\[id: (\d+)\] (\w+) button", observation.markdown)
                      if text != label]
            if others:
                break
        assert others, observation.markdown
        outcome = env.step(_step(observation, "click", others[0]).action)
    assert outcome.done and env.state.raw_reward == -1.0


def test_read_state_without_hook_means_not_started():
    assert read_state("<html><head></head><body>x</body></html>").started is False


def test_summary_averages_per_task_and_scores_the_judge_against_true_reward():
    from scrapesmith.bench.miniwob import summarise

    cases = [
        {"task": "a", "reward": 1.0, "seconds": 1, "judge_success": 0.9, "judge_confidence": 0.8},
        {"task": "a", "reward": -1.0, "seconds": 1, "judge_success": 1.0, "judge_confidence": 1.0},
        {"task": "b", "reward": 0.0, "seconds": 1, "judge_success": 0.0, "judge_confidence": 1.0},
    ]
    summary = summarise(cases)
    assert summary["mean_reward"] == 0.0 and summary["success_rate"] == pytest.approx(1 / 3)
    assert summary["judge_accuracy"] == pytest.approx(2 / 3) and summary["judge_accuracy_conf1"] == 0.5


def test_episodes_land_in_a_trajectory_viewer_with_one_screenshot_per_step(browser_session, tmp_path, open_report):
    from scrapesmith.insta.store import ResultStore

    run_dir = tmp_path / "miniwob"
    evaluate_miniwob(browser_session, lambda env: ScriptedMiniwobPolicy(), ["click-button", "enter-text"],
                     seed=3, run_dir=run_dir)
    results = ResultStore(run_dir).latest()
    page, requests = open_report(run_dir / "report.html")
    assert page.locator("#episodes .episode").count() == len(results) == 2
    for site, result in results.items():
        steps = result.trajectory.steps
        images = page.locator(f'#episodes .episode[data-site="{site}"] .step img')
        assert images.count() == len(steps) >= 1
        assert all((run_dir / step.screenshot).is_file() for step in steps)
        assert images.last.evaluate("image => image.complete && image.naturalWidth > 0")
    assert all(url.startswith("file://") for url in requests), requests


def test_a_judge_that_fails_keeps_the_episode_and_is_counted(browser_session):
    from scrapesmith.llm.views import LLMOutputError

    class FailingJudge:
        def judge(self, task, trajectory, criteria=None):
            raise LLMOutputError("reply did not match Checks after one retry", raw="{}")

    result = evaluate_miniwob(browser_session, lambda env: ScriptedMiniwobPolicy(), ["click-button"], seed=3,
                              judge=FailingJudge(), screenshots=False)
    case = result.cases[0]
    assert case["reward"] == 1.0 and case["steps"] == 1 and "judge_success" not in case
    assert case["judge_error"].startswith("reply did not match") and result.summary["judge_errors"] == 1


def test_an_episode_started_in_place_is_the_one_a_fresh_load_of_its_seed_gives(browser_session):
    """The next episode of a task reuses the page (reseeded, started in place): the same problem, no load."""
    wrap = "() => document.getElementById('wrap').innerText"
    with serve_miniwob() as base_url:
        fresh_env = MiniwobEnv(browser_session, reuse_page=False)
        fresh = {}
        for seed in (7, 8):
            fresh_env.reset(f"{base_url}/click-checkboxes.html?seed={seed}")
            fresh[seed] = (fresh_env.state.utterance, browser_session.evaluate(wrap))
            assert fresh_env.state.starts == 1
        env = MiniwobEnv(browser_session)
        for starts, seed in enumerate((7, 8, 7), start=2):
            env.reset(f"{base_url}/click-checkboxes.html?seed={seed}")
            assert env.state.starts == starts  # started in place: the page's own counter moved, no reload
            assert (env.state.utterance, browser_session.evaluate(wrap)) == fresh[seed]
        env.reset(f"{base_url}/click-button.html?seed=7")  # another task: its page is loaded
        assert env.state.starts == 1 and "click-button" in browser_session.url


def test_a_page_whose_widgets_keep_an_aria_value_is_loaded_afresh_for_every_episode(browser_session):
    """A spin button keeps its aria-valuenow when the task regenerates its problem in place (the field shows 0,
    the widget says 3): once a widget holds one, the next episode loads the page afresh."""
    with serve_miniwob() as base_url:
        env = MiniwobEnv(browser_session)
        for seed in (1, 2):
            env.reset(f"{base_url}/use-spinner.html?seed={seed}")
            assert env.state.starts == 1  # a fresh load each time
            browser_session.press("ArrowUp", "#spinner", times=3)  # what an episode does to the widget
            env.observe()
