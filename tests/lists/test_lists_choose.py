"""The model chooses among candidate lists only where the evidence is split (lists/choose.py).

A scripted model drives the control flow here (what is asked, when, and what its answer may change);
the embedded model's own choices are measured by ``scrapesmith bench nexteval --llm local``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapesmith.dom.list_evidence import detect_lists, overlapping, rank_lists
from scrapesmith.dom.parse import parse_html
from scrapesmith.lists.choose import CONFIDENT, DOUBTFUL, SHORTLIST, choose_data_lists
from scrapesmith.llm.scripted import ScriptedLLM

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval" / "html"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


def page(number: int):
    return parse_html((DATA / f"{number}.html").read_bytes())


def never_called(request) -> str:
    raise AssertionError("the model must not be asked when the evidence is clear")


def test_clear_evidence_asks_nobody_and_matches_detection() -> None:
    root = page(1)
    shortlist = rank_lists(root)[:SHORTLIST]
    assert not [c for c in shortlist if DOUBTFUL <= c.probability < CONFIDENT], "page 1 should be clear"
    decision = choose_data_lists(root, ScriptedLLM(never_called))
    assert decision.calls == 0
    assert [c.region for c in decision.lists] == detect_lists(root)


def test_split_evidence_is_one_schema_bound_call_deciding_only_doubtful_lists() -> None:
    root = page(5)
    ranked = rank_lists(root)
    doubtful = [i for i, c in enumerate(ranked[:SHORTLIST]) if DOUBTFUL <= c.probability < CONFIDENT]
    confident = [c.region for c in ranked if c.probability >= CONFIDENT]
    assert doubtful and confident, "page 5 has both kinds of candidates"

    def reject_everything(request) -> str:
        return json.dumps({"data_lists": []})

    llm = ScriptedLLM(reject_everything)
    decision = choose_data_lists(root, llm)
    assert llm.calls == 1 == decision.calls
    schema = llm.requests[0].json_schema
    assert schema["properties"]["data_lists"]["items"]["enum"] == list(range(SHORTLIST))
    assert [c.region for c in decision.lists] == confident  # rejecting cannot drop a confident list

    keep = doubtful[-1]

    def keep_one(request) -> str:
        return json.dumps({"data_lists": [keep]})

    chosen = [c.region for c in choose_data_lists(root, ScriptedLLM(keep_one)).lists]
    blocked = any(overlapping(ranked[keep].region, region) for region in confident)
    assert (ranked[keep].region in chosen) != blocked  # kept, unless the nesting check forbids it
    assert all(region in chosen for region in confident)
    assert len(chosen) <= len(confident) + 1
