"""Observations show the live page, not the served attributes: values typed, options chosen, boxes ticked,
focus, class-based hiding. Real Chromium on a demo page and on MiniWoB++ task pages."""

from __future__ import annotations

import re

import pytest

from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.views import Action

pytestmark = pytest.mark.browser


def _element(observation, role: str, name: str | None = None):
    for element in observation.elements:
        if element.role == role and (name is None or name in (element.label, element.text)):
            return element
    raise AssertionError(f"no {role} {name!r} in {[e.model_dump(exclude_defaults=True) for e in observation.elements]}")


def test_selected_option_shows_in_markdown_and_elements(browser_session, demo_web):
    env = BrowserEnv(browser_session)
    page = env.reset(demo_web.url("/acme/careers/"))
    category = _element(page, "select", "Category")
    assert category.value == "All categories" and "Design" in category.options
    chosen = env.step(Action(action_key="select_option", action_kwargs={"label": "Design"},
                             target_element_id=category.id))
    assert chosen.error is None
    assert re.search(rf'\[id: {category.id}\] "Design" \(Category select from: All categories,', chosen.observation.markdown)
    assert _element(chosen.observation, "select", "Category").value == "Design"


@pytest.fixture
def miniwob_env(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import MiniwobEnv, serve_miniwob

    with serve_miniwob() as base:
        yield MiniwobEnv(browser_session), base


def test_typed_text_and_focus_show_after_fill(miniwob_env):
    env, base = miniwob_env
    page = env.reset(f"{base}/enter-text.html?seed=1")
    field = _element(page, "textbox")
    assert field.value == ""
    typed = env.step(Action(action_key="fill", action_kwargs={"value": "Hello there"}, target_element_id=field.id))
    assert typed.error is None
    after = _element(typed.observation, "textbox")
    assert after.value == "Hello there" and after.focused
    assert re.search(rf'\[id: {field.id}\] "Hello there" \(text input, focused\)', typed.observation.markdown)


def test_checked_boxes_show_after_check(miniwob_env):
    env, base = miniwob_env
    page = env.reset(f"{base}/click-checkboxes.html?seed=2")
    boxes = [element for element in page.elements if element.role == "checkbox"]
    assert boxes and not any(box.checked for box in boxes)
    ticked = env.step(Action(action_key="set_checked", action_kwargs={"checked": True}, target_element_id=boxes[0].id))
    assert ticked.error is None
    states = {element.id: element.checked for element in ticked.observation.elements if element.role == "checkbox"}
    assert states[boxes[0].id] is True and not any(states[box.id] for box in boxes[1:])
    assert f'[id: {boxes[0].id}] "{boxes[0].label}" (checkbox, checked' in ticked.observation.markdown


def test_collapsed_section_is_hidden_until_expanded(miniwob_env):
    """click-collapsible hides its section by script (no attribute says so): the observation leaves it out,
    and the header reads ``collapsed``, until a click expands it."""
    env, base = miniwob_env
    page = env.reset(f"{base}/click-collapsible.html?seed=0")
    header = _element(page, "tab")
    assert header.expanded == "collapsed" and "collapsed" in page.markdown
    opened = env.step(Action(action_key="click", target_element_id=header.id))
    assert opened.error is None and _element(opened.observation, "tab").expanded == "expanded"
    hidden_words = len(page.markdown.split())
    assert len(opened.observation.markdown.split()) >= hidden_words + 15  # the 20 words of the section
