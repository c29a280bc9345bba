"""The evidence judge's control flow with a scripted model: criteria from the task or a refined task, quotes
verified against the final page and the action log, success only when every criterion is met; export
filtering by its verdict."""

from __future__ import annotations

import json

import pytest

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.evidence import EvidenceJudge, action_log, make_judge, quote_occurs, task_criteria
from scrapesmith.insta.views import Action, Step, Trajectory
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.types import LLMOutputError

TASK = 'Enter "Tora" into the text field and press Submit.'


def _trajectory(stop_reason="stop", typed="Tora") -> Trajectory:
    steps = [Step(url="http://127.0.0.1/t", observation="[id: 4] \"\" (text input)",
                  action=Action(action_key="fill", action_kwargs={"value": typed}, target_element_id=4),
                  candidate=f'fill [id: 4] text field (empty) with "{typed}"', reason="type first"),
             Step(url="http://127.0.0.1/t", observation="[id: 5] Submit button",
                  action=Action(action_key="click", target_element_id=5), candidate='click [id: 5] "Submit" button')]
    return Trajectory(task=TASK, start_url="http://127.0.0.1/t", steps=steps, stop_reason=stop_reason,
                      final_url="http://127.0.0.1/t", final_observation=f'[id: 4] "{typed}" (text input)',
                      policy="candidates")


def _llm(*replies: dict) -> ScriptedLLM:
    answers = iter(json.dumps(reply) for reply in replies)
    return ScriptedLLM(lambda request: next(answers))


def test_task_clauses_become_criteria_with_quotes_kept_whole():
    assert task_criteria(TASK) == ['Enter "Tora" into the text field', "press Submit"]
    assert task_criteria("Select ZrLIee, RKPgD, 3mJ5 and click Submit.") == [
        "Select ZrLIee", "RKPgD", "3mJ5", "click Submit"]
    assert task_criteria('Find "A, and B" then report it') == ['Find "A, and B"', "report it"]


def test_quotes_are_checked_in_the_texts():
    assert quote_occurs('"Submit"  button', 'click [id: 5] "submit" button -> ok')
    assert not quote_occurs("", "anything") and not quote_occurs("Tora!", "Tora")


def test_success_needs_every_criterion_held_and_quoted():
    llm = _llm({"c1": {"evidence": 'with "Tora"', "holds": True}, "c2": {"evidence": '"Submit" button', "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory())
    assert judgement.kind == "evidence" and judgement.success == 1.0 and all(c.met for c in judgement.criteria)
    request = llm.requests[0]
    assert request.stage == "insta.check" and set(request.json_schema["required"]) == {"c1", "c2"}
    assert "1. fill [id: 4]" in request.messages[-1].content and "c2: press Submit" in request.messages[-1].content


def test_invented_evidence_fails_the_criterion():
    llm = _llm({"c1": {"evidence": 'typed "Tora" into the box', "holds": True},
                "c2": {"evidence": '"Submit" button', "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory())
    assert judgement.success == 0.0 and [c.verified for c in judgement.criteria] == [False, True]


def test_action_criteria_need_the_log_not_the_page():
    """The page shows "Tora" in the field either way; only the log proves it was typed by the agent."""
    llm = _llm({"c1": {"evidence": '"Tora" (text input)', "holds": True}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory()).criteria[0].verified is False


def test_a_criterion_that_does_not_hold_fails_and_caps_fail_anyway():
    llm = _llm({"c1": {"evidence": "", "holds": False}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory()).success == 0.0
    llm = _llm({"c1": {"evidence": "Tora", "holds": True}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory(stop_reason="max_actions")).success == 0.0


def test_refined_criteria_replace_the_task_clauses():
    llm = _llm({"c1": {"evidence": "Tora", "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory(), criteria=["The answer should include 'Tora'"])
    assert [c.criterion for c in judgement.criteria] == ["The answer should include 'Tora'"]
    assert judgement.success == 1.0


def test_unreadable_checks_get_one_retry_then_raise():
    replies = iter(["not json", json.dumps({"c1": {"evidence": "Tora", "holds": True},
                                            "c2": {"evidence": "Submit", "holds": True}})])
    llm = ScriptedLLM(lambda request: next(replies))
    assert EvidenceJudge(llm).judge(TASK, _trajectory()).success == 1.0 and llm.calls == 2
    with pytest.raises(LLMOutputError):
        EvidenceJudge(ScriptedLLM(lambda request: '{"c1": {"holds": "maybe"}}')).judge(TASK, _trajectory())


def test_no_model_checks_the_criteria_words_in_the_log():
    assert EvidenceJudge(None).judge(TASK, _trajectory()).success == 1.0
    assert EvidenceJudge(None).judge(TASK, _trajectory(typed="Tara")).success == 0.0


def test_action_log_reads_candidates_errors_and_the_answer():
    trajectory = _trajectory()
    trajectory.steps[1].error = "element is hidden"
    trajectory.answer = "done"
    log = action_log(trajectory)
    assert '1. fill [id: 4] text field with "Tora" -> ok' in log  # "(empty)" was the state before
    assert "-> error: element is hidden" in log and log.endswith("stopped: stop; answer: done")


def test_make_judge_kinds():
    assert make_judge("evidence", None).kind == "evidence"
    with pytest.raises(ScrapesmithError):
        make_judge("paper", None)
    with pytest.raises(ScrapesmithError):
        make_judge("vibes", None)


def test_export_keeps_only_trajectories_the_evidence_judge_passed(tmp_path):
    from scrapesmith.insta.export import ExportConfig, export_run
    from scrapesmith.insta.store import ResultStore
    from scrapesmith.insta.views import SiteResult

    store = ResultStore(tmp_path / "run")
    verdicts = {"good.test": _llm({"c1": {"evidence": "Tora", "holds": True}, "c2": {"evidence": "Submit", "holds": True}}),
                "bad.test": _llm({"c1": {"evidence": "I typed Tora", "holds": True},
                                  "c2": {"evidence": "Submit", "holds": True}})}
    for site, llm in verdicts.items():
        trajectory = _trajectory()
        trajectory.steps[0].candidates = ['c1: fill [id: 4] text field (empty) with "Tora"', "c2: stop: the task is done"]
        trajectory.steps[0].response = '{"reason": "type first", "candidate": "c1"}'
        store.append(SiteResult(site=site, url=f"http://{site}/", status="ok", trajectory=trajectory,
                                judgement=EvidenceJudge(llm).judge(TASK, trajectory)))
    out = tmp_path / "sft.jsonl"
    counts = export_run(tmp_path / "run", out, ExportConfig(min_success=1.0, kinds=("agent", "judge"), scrub_pii=False))
    records = [json.loads(line) for line in out.read_text().splitlines()]
    agent = [r for r in records if r["kind"] == "agent"]
    assert counts.counts == {"agent": 2, "judge": 2} and {r["site"] for r in agent} == {"good.test"}
    first = agent[0]["messages"]
    assert "InSTA" not in first[0]["content"] and "candidate" in first[0]["content"]  # the chooser's prompt
    assert 'c1: fill [id: 4] text field (empty) with "Tora"' in first[1]["content"]
    assert first[1]["content"].endswith('"required":["reason","candidate"],"additionalProperties":false}')  # as sent
    assert first[2]["content"] == '{"reason": "type first", "candidate": "c1"}'
    judge = [r for r in records if r["kind"] == "judge"]
    assert all(r["judge_kind"] == "evidence" and "## Criteria" in r["messages"][1]["content"]
               and '"required":["c1","c2"]' in r["messages"][1]["content"] for r in judge)
