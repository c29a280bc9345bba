"""The model chooses a page's main list only where the evidence's best two are close (lists/choose.py).

A scripted model drives the control flow here (what is asked, when, what the options are, and what its
answer may change); the embedded model's own choices are measured by ``scrapesmith bench nexteval --llm
local``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapesmith.dom.list_evidence import detect_lists, overlapping, rank_lists
from scrapesmith.dom.parse import parse_html
from scrapesmith.lists.choose import CHOICES, CONFIDENT, choose_data_lists, is_close, offered
from scrapesmith.llm.scripted import ScriptedLLM

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval" / "html"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


def page(number: int):
    return parse_html((DATA / f"{number}.html").read_bytes())


def never_called(request) -> str:
    raise AssertionError("the model must not be asked when the evidence is clear")


def test_clear_evidence_asks_nobody_and_matches_detection() -> None:
    root = page(1)
    assert not is_close(offered(rank_lists(root))), "page 1 should be clear"
    decision = choose_data_lists(root, ScriptedLLM(never_called))
    assert decision.calls == 0
    assert [c.region for c in decision.lists] == detect_lists(root)


def test_close_evidence_is_one_enum_bound_choice_of_the_main_list() -> None:
    # page 54: a small table and the page's vehicle cards are close; the cards are option 1
    root = page(54)
    options = offered(rank_lists(root))
    assert is_close(options) and 2 <= len(options) <= CHOICES

    def pick_second(request) -> str:
        return json.dumps({"main_list": 1})

    llm = ScriptedLLM(pick_second)
    decision = choose_data_lists(root, llm, url="https://example.test/", goal="cars for sale")
    assert llm.calls == 1 == decision.calls
    assert llm.requests[0].json_schema["properties"]["main_list"]["enum"] == list(range(len(options)))
    prompt = llm.requests[0].messages[-1].content
    assert f"{options[1].evidence.items} items" in prompt and options[1].preview(1, 40)[0][:40] in prompt
    assert "cars for sale" in prompt
    taken = [c.region for c in decision.lists]
    assert taken[0] == options[1].region  # the chosen list comes first
    beaten = [o.region for o in options if o is not options[1] and o.probability < CONFIDENT]
    assert not any(region in taken for region in beaten)  # the options it beat are dropped
    assert all(not overlapping(a, b) for i, a in enumerate(taken) for b in taken[i + 1 :])


def test_choosing_the_evidence_first_option_keeps_the_evidence_selection() -> None:
    root = page(54)

    def pick_first(request) -> str:
        return json.dumps({"main_list": 0})

    llm = ScriptedLLM(pick_first)
    decision = choose_data_lists(root, llm)
    assert llm.calls == 1 and decision.chosen == 0
    assert [c.region for c in decision.lists] == detect_lists(root)


def test_lists_in_page_chrome_are_not_offered_while_main_content_lists_are() -> None:
    for number in (5, 11, 22, 54):
        ranked = rank_lists(page(number))
        options = offered(ranked)
        main = [c for c in ranked[:8] if not c.evidence.in_chrome_element]
        if main:
            assert all(not option.evidence.in_chrome_element for option in options)


def test_a_failed_call_falls_back_to_the_evidence() -> None:
    root = page(54)

    def garbage(request) -> str:
        return "no idea"

    decision = choose_data_lists(root, ScriptedLLM(garbage))
    assert "evidence alone decides" in decision.note
    assert [c.region for c in decision.lists] == detect_lists(root)
