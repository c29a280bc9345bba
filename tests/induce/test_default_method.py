"""``induce`` with no ``--method`` answers in seconds: no model work starts unless a slow method is named."""

from __future__ import annotations

from scrapesmith.cli.induce import calls_per_field, default_method


def test_auto_is_the_heuristic_without_a_model_and_choose_with_one():
    assert default_method(None) == default_method("none") == default_method("") == "heuristic"
    assert default_method("local") == default_method("openai:gpt-4o-mini") == "choose"


def test_the_announced_call_budget_grows_with_the_method():
    assert calls_per_field("heuristic", 3) == 0
    assert calls_per_field("choose", 3) == 1  # the chooser asks once per field at most
    assert calls_per_field("cot", 3) < calls_per_field("autoscraper", 3)
