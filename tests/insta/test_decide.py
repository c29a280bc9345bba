"""The task's checklist, the calibrated confidence and the ask-when-unsure path (a scripted model stands in for
control flow only: which candidates it is offered, and that its choice is taken and recorded)."""

from __future__ import annotations

import json

from scrapesmith.bench.miniwob import path_scores
from scrapesmith.insta.candidates import candidate_actions
from scrapesmith.insta.chooser import CandidatePolicy, ChooserConfig
from scrapesmith.insta.decide import ASK_BELOW, CALIBRATION, checklist, confidence, decide, evidence_of
from scrapesmith.insta.views import Action, Element, Observation, Step
from scrapesmith.llm.scripted import ScriptedLLM

BUTTONS = [Element(id=1, tag="button", role="button", text="Open"), Element(id=2, tag="button", role="button",
                                                                            text="Save"),
           Element(id=3, tag="button", role="button", text="Cancel")]


def _clicked(element: Element, page: str) -> Step:
    return Step(url="http://127.0.0.1/", observation=page, action=Action(action_key="click",
                                                                         target_element_id=element.id),
                candidate=f'click [id: {element.id}] "{element.name}" button', target=element,
                grounded=[element.name])


def test_the_checklist_moves_clause_by_clause_and_the_episode_stops_when_all_are_verified():
    task = 'Click "Open", then click "Save".'
    assert checklist(task, [], "page 0").current == 'Click "Open"'
    history = [_clicked(BUTTONS[0], "page 0")]
    assert checklist(task, history, "page 1").current == 'click "Save"'
    decision = decide(task, candidate_actions(task, BUTTONS), history, "page 1")
    assert decision.chosen.action.target_element_id == 2 and decision.clause == 'click "Save"'
    history.append(_clicked(BUTTONS[1], "page 1"))
    plan = checklist(task, history, "page 2")
    assert plan.done and plan.current is None
    assert decide(task, candidate_actions(task, BUTTONS), history, "page 2").chosen.action.is_stop


def test_confidence_is_the_smoothed_success_rate_of_picks_with_the_same_evidence():
    steps, successes = CALIBRATION[(True, True, True)]
    assert confidence((True, True, True)) == round((successes + 1) / (steps + 2), 3)
    previous = _clicked(BUTTONS[0], "same page")
    # the last step left the page as it was: not what a working step does
    assert evidence_of(["Save"], 'click "Save"', previous, "same page") == (True, True, False)
    assert evidence_of([], None, None, "page") == (False, False, True)


def _unsure_setup():
    task = 'Enter "kim" and click "Save".'  # nothing to type into: the pick serves a later clause
    observation = Observation(url="http://127.0.0.1/", markdown="# Form", elements=BUTTONS)
    return task, observation


def test_a_pick_below_the_confidence_threshold_goes_to_the_model():
    task, observation = _unsure_setup()
    decision = decide(task, candidate_actions(task, BUTTONS), [], observation.markdown, ASK_BELOW)
    assert decision.confidence < ASK_BELOW and decision.why == "unsure"
    assert decision.offer[0] is decision.chosen and len(decision.offer) > 1
    assert decision.chosen.action.target_element_id == 2
    assert not decide(task, candidate_actions(task, BUTTONS), [], observation.markdown).offer  # off by default


def test_the_model_chooses_when_the_program_is_unsure_and_the_step_records_the_path():
    task, observation = _unsure_setup()
    offered: list[str] = []

    def choose_second(request):
        offered.extend(line for line in request.messages[-1].content.splitlines() if line.startswith("c"))
        return json.dumps({"reason": "cancel first", "candidate": "c2"})

    llm = ScriptedLLM(choose_second)
    step = CandidatePolicy(llm, ChooserConfig(ask_below=ASK_BELOW)).act(task, [], observation)
    assert llm.calls == 1 and step.asked and step.path == "model:unsure" and step.confidence < ASK_BELOW
    assert step.candidates == offered[: len(step.candidates)] and step.candidates[0].startswith("c1: click [id: 2]")
    chosen_line = next(line for line in step.candidates if line.startswith("c2:"))
    assert f"[id: {step.action.target_element_id}]" in chosen_line  # the model's choice is what is done

    without = CandidatePolicy(None, ChooserConfig(ask_below=ASK_BELOW)).act(task, [], observation)
    assert without.path == "program:unsure" and without.action.target_element_id == 2 and not without.asked


def test_a_run_reports_each_path_with_its_steps_and_success():
    cases = [{"task": "a", "reward": 1.0, "paths": ["program", "model:unsure", "program"]},
             {"task": "b", "reward": -1.0, "paths": ["model:unsure"]}, {"task": "c", "reward": 0.0}]
    scores = path_scores(cases)
    assert scores["program"] == {"steps": 2, "episodes": 1, "successes": 1, "success_rate": 1.0}
    assert scores["model:unsure"] == {"steps": 2, "episodes": 2, "successes": 1, "success_rate": 0.5}


def test_a_click_on_the_field_a_step_has_filled_is_no_rival_for_the_model():
    task = 'Find the email by Rochella and reply to them with the text "In.".'
    elements = [Element(id=5, tag="textarea", role="textbox", text="", value="In."),
                Element(id=6, tag="button", role="button", text="Send"),
                Element(id=7, tag="button", role="button", text="Forward")]
    filled = Step(url="http://127.0.0.1/", observation="inbox", action=Action(
        action_key="fill", target_element_id=5, action_kwargs={"value": "In."}),
        candidate='fill [id: 5] textbox with "In."', target=elements[0], grounded=["In."])
    decision = decide(task, candidate_actions(task, elements), [filled], "inbox")
    offered = [(c.action.action_key, c.action.target_element_id) for c in decision.offer]
    assert decision.why == "tie" and ("click", 6) in offered and ("click", 7) in offered
    assert ("click", 5) not in offered
    # before any fill the same click is an ordinary rival
    fresh = decide(task, candidate_actions(task, elements), [], "inbox")
    assert ("click", 5) in [(c.action.action_key, c.action.target_element_id) for c in fresh.offer]


def test_a_tie_goes_to_the_model_only_when_asked_and_the_step_says_who_chose():
    task = 'Find the email by Rochella and reply to them with the text "In.".'
    elements = [Element(id=6, tag="button", role="button", text="Send"),
                Element(id=7, tag="button", role="button", text="Forward")]
    observation = Observation(url="http://127.0.0.1/", markdown="# Inbox", elements=elements)
    assert decide(task, candidate_actions(task, elements), [], observation.markdown).why == "tie"
    llm = ScriptedLLM(lambda request: json.dumps({"reason": "the second", "candidate": "c2"}))
    shipped = CandidatePolicy(llm, ChooserConfig()).act(task, [], observation)
    assert llm.calls == 0 and not shipped.asked and shipped.path == "program:tie"
    asked = CandidatePolicy(llm, ChooserConfig(ask_ties=True)).act(task, [], observation)
    assert llm.calls == 1 and asked.asked and asked.path == "model:tie"
    assert asked.action.target_element_id != shipped.action.target_element_id  # the model's pick was taken
