"""Episodes stop: the step cap, the time cap, and early stops on a repeated action or a page that stopped
changing, each reported as such (insta.episode); the goal judge counts only the agent's own stop."""

from __future__ import annotations

import pytest

from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.episode import EpisodeBudget, early_stop_reason, run_within_budget
from scrapesmith.insta.goal_judge import GoalJudge, answer_holds
from scrapesmith.insta.views import Action, Observation, Step, TaskGoal, Trajectory


class ScrollForever:
    """A policy that scrolls down at every step (control flow: a stuck agent)."""

    name = "paper"

    def act(self, task, history, observation) -> Step:
        return Step(url=observation.url, observation=observation.markdown,
                    action=Action(action_key="scroll", action_kwargs={"direction": "down"}))


@pytest.mark.browser
def test_a_repeated_action_stops_the_episode_early_and_says_so(demo_web, browser_session):
    url = demo_web.url("/pagecraft/")
    trajectory = run_within_budget(BrowserEnv(browser_session), ScrollForever(), "Read the page.", url,
                                   EpisodeBudget(max_actions=10, wall_time=60))
    assert trajectory.stop_reason == "repeated" and len(trajectory.steps) == 3
    assert trajectory.steps[-1].path == "early:repeated" and trajectory.answer is None
    goal = TaskGoal(page=url, entity="Pagecraft", label="", value="")
    assert GoalJudge().judge(trajectory.task, trajectory, goal).success == 0.0  # on the page, but not its own stop


@pytest.mark.browser
def test_the_step_budget_ends_an_episode_that_never_stops(demo_web, browser_session):
    url = demo_web.url("/acme/careers/")
    budget = EpisodeBudget(max_actions=2, wall_time=60, repeats=5, unchanged_steps=5)
    trajectory = run_within_budget(BrowserEnv(browser_session), ScrollForever(), "Read the page.", url, budget)
    assert trajectory.stop_reason == "max_actions" and len(trajectory.steps) == 2
    no_time = EpisodeBudget(max_actions=10, wall_time=0.0, repeats=5, unchanged_steps=5)
    trajectory = run_within_budget(BrowserEnv(browser_session), CandidatePolicy(None), "Read the page.", url, no_time)
    assert trajectory.stop_reason == "wall_time" and not trajectory.steps


def test_an_unchanged_page_stops_the_episode():
    page = Observation(url="http://x/", markdown="# Same")
    steps = [Step(url="http://x/", observation="# Same", action=Action(action_key="click", target_element_id=n))
             for n in range(3)]
    budget = EpisodeBudget()
    assert early_stop_reason(steps, page, budget) == "unchanged"
    assert early_stop_reason(steps[:2], page, budget) is None
    assert early_stop_reason(steps, Observation(url="http://x/", markdown="# Changed"), budget) is None


def test_the_goal_judge_checks_the_value_and_the_page():
    goal = TaskGoal(page="http://x/book/1", entity="The Salt River", label="Publication Date",
                    value="March 5, 2019")
    done = Trajectory(task="t", start_url="http://x/", final_url="http://x/book/1/", answer="It came out on 2019-03-05.",
                      steps=[Step(url="http://x/", observation="", action=Action(action_key="click",
                                                                                 target_element_id=1))])
    judged = GoalJudge().judge("t", done, goal)
    assert judged.success == 1.0 and [c.status for c in judged.criteria] == ["verified", "verified"]
    wrong = done.model_copy(update={"answer": "March 5, 2018"})
    assert GoalJudge().judge("t", wrong, goal).criteria[1].status == "refuted"
    capped = done.model_copy(update={"stop_reason": "max_actions"})
    assert GoalJudge().judge("t", capped, goal).success == 0.0
    assert answer_holds("992662 shares", "992,662") and answer_holds("$13.49", "$13.49")
    assert not answer_holds("Pagecraft", "Atlas Academic") and not answer_holds(None, "x")
