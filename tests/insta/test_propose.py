"""Proposer phase 1 (N/A or a task, 16 of 100 examples) and phase 2 refinement."""

from __future__ import annotations

import re

import pytest

from scrapesmith.insta.propose import (
    LandingPage,
    Proposer,
    parse_proposal,
    parse_refined,
    proposer_examples,
)
from scrapesmith.insta.views import Step, Trajectory
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMOutputError, LLMRequest


def test_example_list_has_one_hundred_distinct_entries():
    assert len({row["domain"] for row in proposer_examples()}) == 100


@pytest.mark.parametrize(
    ("text", "task"),
    [
        ("N/A", None),
        ("'n/a'", None),
        ("* 'bet365.com': 'N/A'", None),
        ("Find the opening hours of the museum.", "Find the opening hours of the museum."),
        ("'oceanario.pt': 'Find the ticket price for adults.'\nmore words", "Find the ticket price for adults."),
    ],
)
def test_parse_proposal_reads_task_or_not_applicable(text, task):
    domain = "bet365.com" if "bet365" in text else "oceanario.pt"
    assert parse_proposal(domain, text).task == task


def test_parse_proposal_rejects_empty_answer():
    with pytest.raises(LLMOutputError):
        parse_proposal("x.org", "  \n ")


def _examples_in(request: LLMRequest) -> list[str]:
    return re.findall(r"^\* '([^']+)': '(?!N/A)", request.messages[0].content, flags=re.MULTILINE)


def test_phase_one_samples_sixteen_examples_from_the_hundred_and_shows_the_landing_page():
    llm = ScriptedLLM(lambda request: "Find the opening hours.")
    proposer = Proposer(llm, seed=7)
    proposer.propose("oceanario.pt", LandingPage(title="Oceanário de Lisboa", text="Tickets and opening hours"))
    proposer.propose("oceanario.pt")
    known = {row["domain"] for row in proposer_examples()}
    first, second = _examples_in(llm.requests[0]), _examples_in(llm.requests[1])
    assert len(first) == len(set(first)) == 16 and set(first) <= known
    assert set(first) != set(second)
    assert "Oceanário de Lisboa" in llm.requests[0].messages[1].content
    assert "fbcdn.net': 'N/A'" in llm.requests[0].messages[0].content


REFINED = """An expert would compare products.
```json
{"proposed_task": "What is the price of the blue kettle?", "steps": ["Open the shop", "Find the kettle"],
 "criteria": ["The answer states $12"]}
```"""


def test_parse_refined_reads_task_steps_and_criteria():
    refined = parse_refined(REFINED)
    assert refined.proposed_task.startswith("What is the price") and refined.steps[1] == "Find the kettle"
    assert refined.criteria == ["The answer states $12"]


def test_parse_refined_rejects_missing_task():
    with pytest.raises(LLMOutputError, match="proposed_task"):
        parse_refined('```json\n{"steps": []}\n```')


def test_refine_sees_the_trajectory_and_retries_once():
    replies = iter(['```json\n{"steps": []}\n```', REFINED])
    llm = ScriptedLLM(lambda request: next(replies))
    trajectory = Trajectory(task="find a kettle", start_url="http://127.0.0.1/",
                            steps=[Step(url="http://127.0.0.1/kettles", observation="Blue kettle $12")],
                            final_url="http://127.0.0.1/k1", final_observation="Blue kettle details")
    refined = Proposer(llm).refine("127.0.0.1", "find a kettle", trajectory, None)
    assert refined.steps == ["Open the shop", "Find the kettle"] and llm.calls == 2
    prompt = llm.requests[0].messages[1].content
    assert "Blue kettle $12" in prompt and "find a kettle" in prompt and "Blue kettle details" in prompt
