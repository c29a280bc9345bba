"""The browser environment on demo pages: observation format and cap, each action, errors fed back.

``fill`` and ``set_checked`` are checked end to end in test_miniwob.py, where the task page's own reward
proves the value was typed and the boxes ticked; test_live_state.py checks the observation shows them.
"""

from __future__ import annotations

import re

import pytest

from scrapesmith.insta.env import BrowserEnv, cap_tokens
from scrapesmith.insta.views import Action

pytestmark = pytest.mark.browser


def _id(markdown: str, description: str) -> int:
    match = re.search(r"\[id: (\d+)\] " + description, markdown)
    assert match, f"{description!r} not in the observation"
    return int(match.group(1))


def test_observation_is_markdown_with_element_ids(browser_session, demo_web):
    observation = BrowserEnv(browser_session).reset(demo_web.url("/acme/careers/"))
    assert observation.url.endswith("/acme/careers/") and "# Join Acme Analytics" in observation.markdown
    assert re.search(r"\[id: \d+\] Filter button", observation.markdown)


def test_select_and_click_filter_the_job_table(browser_session, demo_web):
    env = BrowserEnv(browser_session)
    page = env.reset(demo_web.url("/acme/careers/")).markdown
    chosen = env.step(Action(action_key="select_option", action_kwargs={"label": "Engineering"},
                             target_element_id=_id(page, '"All categories"')))
    assert chosen.error is None
    filtered = env.step(Action(action_key="click", target_element_id=_id(chosen.observation.markdown,
                                                                          "Filter button")))
    assert filtered.error is None and "category=" in filtered.observation.url
    rows = re.findall(r"^\| \[id: \d+\] .+? link \| (\w[\w ]*?) \|", filtered.observation.markdown, re.MULTILINE)
    assert rows and set(rows) == {"Engineering"}


def test_click_link_then_go_back_and_scroll(browser_session, demo_web):
    env = BrowserEnv(browser_session)
    page = env.reset(demo_web.url("/acme/careers/")).markdown
    opened = env.step(Action(action_key="click", target_element_id=_id(page, "Blog link")))
    assert opened.error is None and "/acme/blog" in opened.observation.url
    back = env.step(Action(action_key="go_back"))
    assert back.error is None and back.observation.url.endswith("/acme/careers/")
    scrolled = env.step(Action(action_key="scroll", action_kwargs={"delta_x": 0, "delta_y": 300}))
    assert scrolled.error is None


def test_unknown_element_and_refused_navigation_become_feedback(browser_session, demo_web):
    env = BrowserEnv(browser_session)
    env.reset(demo_web.url("/acme/careers/"))
    missing = env.step(Action(action_key="click", target_element_id=99999))
    assert missing.error == "there is no element with id 99999 on the current page"
    refused = env.step(Action(action_key="goto", action_kwargs={"url": "http://10.0.0.1/admin"}))
    assert refused.error and refused.observation.url.endswith("/acme/careers/")


def test_observation_cap_keeps_whole_lines_and_says_it_cut():
    text = "\n".join(f"[id: {i}] item number {i} link" for i in range(2000))
    capped, truncated = cap_tokens(text, 2048)
    assert truncated and capped.endswith("scroll to see more ...]") and "[id: 0] item" in capped
    assert "[id: 1999]" not in capped
    assert cap_tokens("short", 2048) == ("short", False)
