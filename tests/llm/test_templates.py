"""Prompt templates under llm/prompts/ render from their variables, and fail loudly without them."""

from __future__ import annotations

import pytest

from scrapesmith.llm import LLMError, list_prompts, render_prompt
from scrapesmith.llm.templates import PromptNotFound

COLUMNS = [{"name": "Title", "description": "the post title"}, {"name": "URL"}]


def test_lists_prompts_render_with_their_variables() -> None:
    common = {"goal": "g", "columns": COLUMNS}
    assert "<li>b</li>" in render_prompt("lists_selector_model", **common, description="a post",
                                         html="<ul/>", examples=["<li>a</li>", "<li>b</li>"])
    assert "SaveText(3" in render_prompt("lists_verify", goal="g", action="SaveText(3, 'Title')",
                                         url_before="a", before="<p/>", url_after="a", after="<p/>")
    assert "Who wrote it?" in render_prompt("lists_answer_question", column="Author",
                                            question="Who wrote it?", text="By Ann.")


def test_seed_prompts_of_every_capability_are_present() -> None:
    names = set(list_prompts())
    assert {"induce_top_down", "lists_selector_model", "collect_plan", "insta_agent", "insta_judge"} <= names
    assert not any(name.startswith("_") for name in names)


def test_missing_variable_is_an_error_not_a_blank() -> None:
    with pytest.raises(LLMError, match="lists_answer_question.*'question' is undefined"):
        render_prompt("lists_answer_question", column="c", text="t")


def test_unknown_prompt_lists_the_known_ones() -> None:
    with pytest.raises(PromptNotFound, match="known: .*induce_top_down"):
        render_prompt("no_such_prompt")


def test_every_prompt_names_the_paper_it_follows() -> None:
    from scrapesmith.llm.templates import PROMPTS_DIR

    papers = ("AutoScraper", "BardeenAgent", "AutoData", "InSTA")
    for name in list_prompts():
        header = (PROMPTS_DIR / f"{name}.j2").read_text().split("-#}", 1)[0]
        assert header.startswith("{#-") and any(paper in header for paper in papers), name
