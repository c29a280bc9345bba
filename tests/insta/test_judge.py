"""Judge parsing, clamping, retry and the confidence formula."""

from __future__ import annotations

import pytest

from scrapesmith.insta.judge import Judge, parse_judgement
from scrapesmith.insta.views import Action, Judgement, Step, Trajectory
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMOutputError

SCORES = '```json\n{"success": 0.9, "efficiency": 0.5, "self_correction": 0.1}\n```'


def test_parse_judgement_reads_scores_after_the_analysis():
    judgement = parse_judgement(f"The agent reached the page and answered.\n{SCORES}")
    assert (judgement.success, judgement.efficiency, judgement.self_correction) == (0.9, 0.5, 0.1)


def test_parse_judgement_clamps_out_of_range_and_accepts_numeric_strings():
    judgement = parse_judgement('```json\n{"success": "1.3", "efficiency": -2, "self_correction": 0}\n```')
    assert (judgement.success, judgement.efficiency) == (1.0, 0.0)


@pytest.mark.parametrize(
    "text",
    ["success: 1.0", '```json\n{"success": 1.0, "efficiency": 1.0}\n```',
     '```json\n{"success": "high", "efficiency": 1, "self_correction": 1}\n```',
     '```json\n{"success": NaN, "efficiency": 1, "self_correction": 1}\n```'],
)
def test_parse_judgement_rejects_missing_or_non_numeric_scores(text):
    with pytest.raises(LLMOutputError):
        parse_judgement(text)


@pytest.mark.parametrize(("success", "confidence"), [(1.0, 1.0), (0.0, 1.0), (0.5, 0.0), (0.75, 0.5)])
def test_confidence_is_twice_the_distance_from_one_half(success, confidence):
    judgement = Judgement(success=success, efficiency=0, self_correction=0)
    assert judgement.confidence == pytest.approx(confidence)


def _trajectory(steps: int) -> Trajectory:
    return Trajectory(
        task="find the price", start_url="http://127.0.0.1/", answer="$12",
        steps=[Step(url=f"http://127.0.0.1/s{i}", observation=f"page {i}",
                    action=Action(action_key="click", target_element_id=i)) for i in range(steps)],
        final_url="http://127.0.0.1/final", final_observation="Price: $12",
    )


def test_judge_sees_task_last_five_steps_and_final_page_and_retries_once():
    replies = iter(["I think it worked.", SCORES])
    llm = ScriptedLLM(lambda request: next(replies))
    judgement = Judge(llm).judge("find the price", _trajectory(8))
    assert judgement.success == 0.9 and llm.calls == 2
    prompt = llm.requests[0].messages[1].content
    assert "find the price" in prompt and "Price: $12" in prompt and "$12" in prompt
    assert "/s2\n" not in prompt and "/s3\n" in prompt and "/s7\n" in prompt
    assert "300 word" in llm.requests[0].messages[0].content


def test_judge_raises_after_two_unreadable_answers():
    llm = ScriptedLLM(lambda request: "no scores")
    with pytest.raises(LLMOutputError):
        Judge(llm).judge("t", _trajectory(1))
    assert llm.calls == 2
