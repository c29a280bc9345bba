"""``induce`` with no ``--method``: the heuristic in seconds without a model; with one, ``read``, at most four
calls a site, announced; the slow methods run only when named."""

from __future__ import annotations

from scrapesmith.cli.induce import calls_per_field, default_method, most_calls


def test_auto_is_the_heuristic_without_a_model_and_read_with_one():
    assert default_method(None) == default_method("none") == default_method("") == "heuristic"
    assert default_method("local") == default_method("openai:gpt-4o-mini") == "read"
    assert most_calls("read", 12, 3) == 4  # a site's calls, whatever the number of fields


def test_the_announced_call_budget_grows_with_the_method():
    assert calls_per_field("heuristic", 3) == 0
    assert calls_per_field("choose", 3) == 1  # the chooser asks once per field at most
    assert calls_per_field("cot", 3) < calls_per_field("autoscraper", 3)
