"""Prompt templates under llm/prompts/ render from their variables, and fail loudly without them."""

from __future__ import annotations

import pytest

from scrapesmith.llm import LLMError, list_prompts, render_prompt
from scrapesmith.llm.templates import PromptNotFound

COLUMNS = [{"name": "Title", "description": "the post title"}, {"name": "URL"}]


def test_bardeen_policy_shows_goal_columns_tools_state_and_page() -> None:
    text = render_prompt(
        "bardeen_policy", goal="Extract all blog posts", columns=COLUMNS, url="http://127.0.0.1/blog",
        dom='<a #3 href="/p1">First post</a>', in_list=False, history=["Click(2) -> opened /blog"],
    )
    assert "Extract all blog posts" in text
    assert "- `Title`: the post title" in text and "- `URL`" in text
    assert "| EnterList | elements, description, pagination |" in text
    assert "1. Click(2) -> opened /blog" in text
    assert '<a #3 href="/p1">First post</a>' in text
    assert "inside a list" not in text


def test_bardeen_prompts_render_with_their_variables() -> None:
    common = {"goal": "g", "columns": COLUMNS}
    assert "1. Finish()" in render_prompt("bardeen_choose", **common, url="u", dom="d", in_list=True,
                                          history=[], candidates=["Click(1)", "Finish()"])
    assert "<li>b</li>" in render_prompt("bardeen_selector_model", **common, description="a post",
                                         html="<ul/>", examples=["<li>a</li>", "<li>b</li>"])
    assert "SaveText(3" in render_prompt("bardeen_verify", goal="g", action="SaveText(3, 'Title')",
                                         url_before="a", before="<p/>", url_after="a", after="<p/>")
    assert "Who wrote it?" in render_prompt("bardeen_answer_question", column="Author",
                                            question="Who wrote it?", text="By Ann.")


def test_seed_prompts_of_every_capability_are_present() -> None:
    names = set(list_prompts())
    assert {"bardeen_policy", "bardeen_selector_model", "insta_agent", "insta_judge", "insta_propose"} <= names
    assert not any(name.startswith("_") for name in names)


def test_missing_variable_is_an_error_not_a_blank() -> None:
    with pytest.raises(LLMError, match="bardeen_answer_question.*'question' is undefined"):
        render_prompt("bardeen_answer_question", column="c", text="t")


def test_unknown_prompt_lists_the_known_ones() -> None:
    with pytest.raises(PromptNotFound, match="known: .*bardeen_policy"):
        render_prompt("no_such_prompt")
