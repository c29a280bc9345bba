"""The judge's reading of looks and waits, on real MiniWoB++ episodes in real Chromium: a click on what the task
describes is verified, a click on something else is refuted, and the page's own reward says which is which."""

from __future__ import annotations

import pytest

from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.insta.evidence_judge import EvidenceJudge, task_criteria
from scrapesmith.insta.views import Action, Step, Trajectory

pytestmark = pytest.mark.browser


class WrongThing:
    """Clicks the first thing the task's description does *not* fit (another colour, another shape)."""

    name = "candidates"

    def __init__(self) -> None:
        self.policy = CandidatePolicy(None)

    def act(self, task: str, history: list[Step], observation) -> Step:
        step = self.policy.act(task, history, observation)
        if history or step.action is None or step.action.action_key != "click" or step.target is None:
            return step
        from scrapesmith.insta.appearance import _target, seen_items

        others = [p for p in seen_items(observation.percepts, set()) if p.kind == "shape" and p.id != step.target.id
                  and p.rgb != tuple(step.target.seen["rgb"]) and p.shape == step.target.seen["shape"]]
        if others:
            step.action = Action(action_key="click", target_element_id=others[0].id)
            step.target = _target(others[0])
        return step


@pytest.fixture
def judged_run(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    def run(task: str, policy, seeds: range):
        result = evaluate_miniwob(browser_session, lambda env: policy, [task], episodes=len(seeds), seed=seeds.start,
                                  judge=EvidenceJudge(None), screenshots=False)
        return result.cases

    return run


def test_a_click_on_the_thing_described_is_verified_and_one_on_another_is_refuted(judged_run):
    right = judged_run("click-color", CandidatePolicy(None), range(3))
    assert all(case["reward"] == 1.0 and case["judge_success"] == 1.0 for case in right), right
    wrong = judged_run("click-color", WrongThing(), range(3))
    assert all(case["reward"] < 0 and case["judge_success"] == 0.0 for case in wrong), wrong


def test_shapes_described_by_size_colour_and_character_are_judged_as_the_page_rewards_them(judged_run):
    cases = judged_run("click-shape", CandidatePolicy(None), range(4))
    assert all(case["reward"] == 1.0 for case in cases), cases
    # what the judge verifies the page rewarded; a word the record cannot settle leaves it unsure, never verified
    assert all(case["judge_success"] in (0.0, 1.0) for case in cases) and sum(c["judge_success"] for c in cases) >= 2


def test_a_wait_of_the_length_named_is_verified_and_another_length_is_refuted():
    task = "Click button ONE, wait 2 seconds, then click button TWO."
    assert task_criteria(task)[1] == "wait 2 seconds"
    assert task_criteria("Click on the grid coordinate (1,-2).") == ["Click on the grid coordinate (1,-2)"]
    from scrapesmith.insta.views import Element

    def episode(seconds: float) -> Trajectory:
        one, two = (Element(id=i, tag="button", role="button", text=name) for i, name in ((1, "ONE"), (2, "TWO")))
        steps = [Step(url="u", observation="p", action=Action(action_key="click", target_element_id=1), target=one),
                 Step(url="u", observation="p", action=Action(action_key="wait", action_kwargs={"seconds": seconds})),
                 Step(url="u", observation="p", action=Action(action_key="click", target_element_id=2), target=two)]
        return Trajectory(task=task, policy="candidates", start_url="u", steps=steps, final_observation="p")

    assert EvidenceJudge(None).judge(task, episode(2.0)).success == 1.0
    assert EvidenceJudge(None).judge(task, episode(5.0)).success == 0.0
