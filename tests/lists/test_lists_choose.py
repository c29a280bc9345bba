"""The model chooses a page's main list only where the evidence's best two are close (lists/choose.py).

A scripted model drives the control flow here (what is asked, when, what the options are, and what its
answer may change); the embedded model's own choices are measured by ``scrapesmith bench nexteval --llm
local``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scrapesmith.dom.list_evidence import rank_lists
from scrapesmith.dom.list_selection import detect_lists, overlapping
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


def choose_by_preview(marker: str):
    """A scripted chooser that names the option whose first records contain ``marker``, in any order."""

    def respond(request) -> str:
        blocks = re.split(r"^\[(\d+)\] ", request.messages[-1].content, flags=re.MULTILINE)[1:]
        chosen = next(int(i) for i, block in zip(blocks[::2], blocks[1::2], strict=True) if marker in block)
        return json.dumps({"main_list": chosen})

    return ScriptedLLM(respond)


def test_close_evidence_is_an_enum_bound_choice_of_the_main_list_asked_in_two_orders() -> None:
    # page 54: a small table and the page's vehicle cards are close; the cards are option 1
    root = page(54)
    options = offered(rank_lists(root))
    assert is_close(options) and 2 <= len(options) <= CHOICES
    assert "See all" in options[1].preview(1)[0]
    llm = choose_by_preview("See all")
    decision = choose_data_lists(root, llm, url="https://example.test/", goal="cars for sale")
    assert llm.calls == 2 == decision.calls and decision.chosen == 1
    assert all(r.json_schema["properties"]["main_list"]["enum"] == list(range(len(options))) for r in llm.requests)
    first, second = (request.messages[-1].content for request in llm.requests)
    assert f"{options[1].evidence.items} items" in first and "cars for sale" in first
    assert first.index(options[0].preview(1, 40)[0]) < first.index(options[1].preview(1, 40)[0])
    assert second.index(options[0].preview(1, 40)[0]) > second.index(options[1].preview(1, 40)[0])
    taken = [c.region for c in decision.lists]
    assert taken[0] == options[1].region  # the chosen list comes first
    beaten = [o.region for o in options if o is not options[1] and o.probability < CONFIDENT]
    assert not any(region in taken for region in beaten)  # the options it beat are dropped
    assert all(not overlapping(a, b) for i, a in enumerate(taken) for b in taken[i + 1 :])


def test_choosing_the_evidence_first_option_keeps_the_evidence_selection() -> None:
    root = page(54)
    marker = offered(rank_lists(root))[0].preview(1, 30)[0]
    decision = choose_data_lists(root, choose_by_preview(marker))
    assert decision.chosen == 0 and decision.calls == 2
    assert [c.region for c in decision.lists] == detect_lists(root)


def test_a_model_that_names_whatever_comes_first_leaves_the_evidence_alone() -> None:
    root = page(54)

    def first_shown(request) -> str:
        return json.dumps({"main_list": 0})

    decision = choose_data_lists(root, ScriptedLLM(first_shown))
    assert decision.calls == 2 and decision.chosen is None and "two orders" in decision.note
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
