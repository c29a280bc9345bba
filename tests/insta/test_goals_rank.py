"""Which facts of the pages read become goals, and in what order the proposer sees them: a field several
records show before a one-off line, and no goal from a title that merely holds a colon."""

from __future__ import annotations

import random

from scrapesmith.insta.explore import Exploration, SitePage
from scrapesmith.insta.goals import ranked_goals, site_goals
from scrapesmith.insta.views import TaskGoal
from scrapesmith.web import Page


def _goal(entity: str, label: str, value: str) -> TaskGoal:
    page = f"http://127.0.0.1/{entity.casefold().replace(' ', '-')}"
    return TaskGoal(page=page, entity=entity, label=label, value=value, route=[entity], heading=entity)


def test_a_label_several_records_show_with_different_values_ranks_first():
    goals = [_goal("Launch notes", "Release engineering", "five lessons"), _goal("Acme Robotics", "Sector", "Energy"),
             _goal("Boltex", "Sector", "Industrials"), _goal("Crane", "Language", "English"),
             _goal("Dune", "Language", "English")]
    for seed in range(5):  # whatever the shuffle, the one-off label and the value that never changes come last
        ranked = ranked_goals(goals, random.Random(seed), limit=5)
        assert [goal.label for goal in ranked][:2] == ["Sector", "Sector"]
        assert {goal.label for goal in ranked[2:]} == {"Release engineering", "Language"}


def _site_page(path: str, html: str, route: tuple[str, ...] = ()) -> SitePage:
    url = f"http://127.0.0.1{path}"
    return SitePage(url=url, page=Page(url=url, content=html.encode(), text=html), route=route)


def test_a_title_with_a_colon_is_no_label_and_value_of_its_own_record():
    post = ("<html><body><h1>Release engineering: five lessons from our customers</h1>"
            "<p>Release engineering: five lessons from our customers</p><dl><dt>Author</dt><dd>Kim Lee</dd></dl>"
            "</body></html>")
    landing = _site_page("/", '<html><body><h1>News</h1><a href="/post">Release engineering</a></body></html>')
    found = site_goals(Exploration(landing=landing, pages=[_site_page("/post", post, ("Release engineering",))]))
    labels = {goal.label for goal in found if goal.label}
    assert labels == {"Author"}
