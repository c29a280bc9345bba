"""Phase 1 on the pages read: a task whose goal the pages show; vague tasks and N/A rejected and re-proposed;
N/A only for a site with nothing to ask, with its reason."""

from __future__ import annotations

import json
import random

import pytest

from scrapesmith.insta.explore import explore
from scrapesmith.insta.goals import goal_task, match_goal, ranked_goals, site_goals
from scrapesmith.insta.propose import Proposer
from scrapesmith.insta.propose_site import SiteProposer, SiteProposerConfig
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.web import HttpFetcher


@pytest.fixture(scope="module")
def bookshelf(demo_web):
    http = HttpFetcher(allow_hosts=["127.0.0.1"], delay=0)
    found = explore(http, http.fetch(demo_web.url("/bookshelf/")))
    return found, site_goals(found)


def _model(free_text: str, choice: str = "t2"):
    def respond(request) -> str:
        if "## Tasks" in request.messages[-1].content:
            return json.dumps({"reason": "a reader would ask", "task": choice})
        return free_text
    return ScriptedLLM(respond)


def test_the_pages_read_give_goals_the_truth_holds(bookshelf, demo_web):
    found, goals = bookshelf
    books = {book["url"]: book for book in demo_web.sites.truth("bookshelf")["books"]}
    values = [goal for goal in goals if goal.label]
    assert len(found.pages) >= 4 and values
    held = 0
    for goal in values:
        path = goal.page.split(str(demo_web.port), 1)[1]
        if path in books:  # a book's own page: its values are that book's, never another's
            own = {str(value) for value in books[path].values()}
            others = {str(value) for url, book in books.items() if url != path for value in book.values()}
            assert goal.entity == books[path]["title"] and (goal.value in own or goal.value not in others)
            held += goal.value in own
    assert held >= 0.7 * sum(goal.page.split(str(demo_web.port), 1)[1] in books for goal in values)


def test_a_vague_task_is_rejected_and_re_proposed_as_a_choice(bookshelf):
    _, goals = bookshelf
    model = _model("Find the landing page title and text.")
    proposal = SiteProposer(Proposer(model, seed=5), SiteProposerConfig(free_form=True)).propose(
        "bookshelf", None, goals, ["p1", "p2"])
    assert proposal.rejected == [("vague: 'Find the landing page title and text.' names no record of the pages "
                                  "read with its label")]
    offered = ranked_goals(goals, random.Random(5), 8)  # the same draws as the proposer's
    assert len(model.requests) == 2 and proposal.system == "insta_propose_choose"
    assert proposal.goal == offered[1] and proposal.task == goal_task(offered[1])
    assert proposal.reason.startswith("chosen by the model") and proposal.pages_read == ["p1", "p2"]


def test_a_task_naming_a_record_and_its_label_is_kept_with_its_goal(bookshelf):
    _, goals = bookshelf
    goal = next(goal for goal in goals if goal.label == "Publisher")
    model = _model(f'Find the publisher of "{goal.entity}".')
    proposal = SiteProposer(Proposer(model, seed=1), SiteProposerConfig(free_form=True)).propose(
        "bookshelf", None, goals, [])
    assert len(model.requests) == 1 and not proposal.rejected
    assert proposal.goal.entity == goal.entity and proposal.goal.label == "Publisher"
    assert proposal.goal.value == goal.value and proposal.task == goal_task(proposal.goal)


def test_n_a_is_rejected_for_a_site_with_facts_and_given_with_a_reason_for_an_empty_one(bookshelf):
    _, goals = bookshelf
    proposal = SiteProposer(Proposer(_model("N/A", "t1"), seed=2), SiteProposerConfig(free_form=True)).propose(
        "bookshelf", None, goals, [])
    assert proposal.task and proposal.goal and proposal.rejected[0].startswith("N/A for a site whose pages hold")
    empty = SiteProposer(Proposer(_model("N/A"), seed=2)).propose("blank", None, [], ["http://x/"])
    assert empty.task is None and empty.reason.startswith("N/A: empty site: the 1 pages read")


def test_match_goal_needs_the_record_and_the_label(bookshelf):
    _, goals = bookshelf
    goal = next(goal for goal in goals if goal.label == "ISBN-13")
    assert match_goal(f'What is the ISBN-13 of "{goal.entity}"?', goals).value == goal.value
    assert match_goal(f'Tell me about "{goal.entity}"', [g for g in goals if g.label]) is None
    assert match_goal("What is the ISBN-13 of the newest book?", goals) is None
