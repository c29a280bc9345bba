"""The candidate policy and the evidence judge with the embedded model on one MiniWoB++ episode.

A smoke test (the path runs end to end against the real model, its answers bound by the schemas); the
capability figures live in BENCHMARKS.md, measured by ``scrapesmith bench miniwob --llm local``. The lead
runs it (``pytest -m model tests/insta/test_insta_model_smoke.py``); never on a shared busy machine.
"""

from __future__ import annotations

import pytest

from scrapesmith.config import Settings
from scrapesmith.insta.chooser import CandidatePolicy, ChooserConfig
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.browser, pytest.mark.timeout(1800)]


def test_embedded_model_chooses_a_candidate_and_judges_with_evidence(browser_session) -> None:
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import MiniwobEnv, run_miniwob_episode, serve_miniwob

    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    llm = resolve_llm("local", cache=False, ledger=ledger)
    with serve_miniwob() as base:
        env = MiniwobEnv(browser_session)
        trajectory, state = run_miniwob_episode(env, CandidatePolicy(llm, ChooserConfig(ask_ties=True)), base,
                                               "click-button", seed=0, max_actions=3)
    assert trajectory.steps and all(step.action is not None for step in trajectory.steps)  # the grammar held
    assert all(step.candidate and step.reason is not None for step in trajectory.steps)
    judgement = EvidenceJudge(llm).judge(trajectory.task, trajectory)
    assert judgement.kind == "evidence" and judgement.criteria
    # the model, asked to break ties, chose among the tied candidates; the judge asks it only about criteria the program cannot
    # verify itself (none on this task), never anything else
    assert "insta.choose" in {entry.stage for entry in ledger.entries}
    assert {entry.stage for entry in ledger.entries} <= {"insta.choose", "insta.check"}
    if judgement.success == 1.0:  # a success must rest on quotes that occur
        assert all(check.verified for check in judgement.criteria)
    print(f"reward {state.raw_reward}, judge {judgement.success}, {len(ledger)} calls")


def test_embedded_model_chooses_when_the_program_is_unsure() -> None:
    """The ask-when-unsure path with the real model: offered the pick and the best others under the schema,
    its choice is one of them and the step says the model decided."""
    from scrapesmith.insta.decide import ASK_BELOW
    from scrapesmith.insta.views import Element, Observation

    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    buttons = [Element(id=1, tag="button", role="button", text="Open"),
               Element(id=2, tag="button", role="button", text="Save"),
               Element(id=3, tag="button", role="button", text="Cancel")]
    observation = Observation(url="http://127.0.0.1/", markdown="# Form\n\n[id: 1] Open button [id: 2] Save button "
                              "[id: 3] Cancel button", elements=buttons)
    llm = resolve_llm("local", cache=False, ledger=Ledger())

    step = CandidatePolicy(llm, ChooserConfig(ask_below=ASK_BELOW)).act('Enter "kim" and click "Save".', [], observation)
    assert step.path == "model:unsure" and step.asked and step.confidence < ASK_BELOW
    assert step.action is not None and step.action.target_element_id in {1, 2, 3}
    assert any(line.split(": ", 1)[1] == step.candidate for line in step.candidates)
