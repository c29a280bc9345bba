"""The evidence judge's control flow with a scripted model: criteria from the task or a refined task, quotes
verified against the final page and the action log, success only when every criterion is met; export
filtering by its verdict."""

from __future__ import annotations

import json

import pytest

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.evidence_judge import (
    EvidenceJudge,
    action_log,
    make_judge,
    quote_occurs,
    task_criteria,
)
from scrapesmith.insta.views import Action, Element, Step, Trajectory
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMOutputError

TASK = 'Enter "Tora" into the text field and press Submit.'


FIELD = Element(id=4, tag="input", role="textbox", input_type="text", value="")
SUBMIT = Element(id=5, tag="button", role="button", text="Submit")


def _trajectory(stop_reason="stop", typed="Tora", targets=True, task=TASK) -> Trajectory:
    """Type then submit; ``targets=False`` is a step that did not record its element (the seed's agent)."""
    steps = [Step(url="http://127.0.0.1/t", observation="[id: 4] \"\" (text input)",
                  action=Action(action_key="fill", action_kwargs={"value": typed}, target_element_id=4),
                  candidate=f'fill [id: 4] text field (empty) with "{typed}"', reason="type first",
                  target=FIELD if targets else None),
             Step(url="http://127.0.0.1/t", observation="[id: 5] Submit button",
                  action=Action(action_key="click", target_element_id=5), candidate='click [id: 5] "Submit" button',
                  target=SUBMIT if targets else None)]
    return Trajectory(task=task, start_url="http://127.0.0.1/t", steps=steps, stop_reason=stop_reason,
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
    """Steps without their elements (the seed's agent): the program verifies nothing, the model judges all."""
    llm = _llm({"c1": {"evidence": 'with "Tora"', "holds": True}, "c2": {"evidence": '"Submit" button', "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory(targets=False))
    assert judgement.kind == "evidence" and judgement.success == 1.0 and all(c.met for c in judgement.criteria)
    request = llm.requests[0]
    assert request.stage == "insta.check" and set(request.json_schema["required"]) == {"c1", "c2"}
    assert "1. fill [id: 4]" in request.messages[-1].content and "c2: press Submit" in request.messages[-1].content


def test_invented_evidence_fails_the_criterion():
    llm = _llm({"c1": {"evidence": 'typed "Tora" into the box', "holds": True},
                "c2": {"evidence": '"Submit" button', "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory(targets=False))
    assert judgement.success == 0.0 and [c.verified for c in judgement.criteria] == [False, True]


def test_action_criteria_need_the_log_not_the_page():
    """The page shows "Tora" in the field either way; only the log proves it was typed by the agent."""
    llm = _llm({"c1": {"evidence": '"Tora" (text input)', "holds": True}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory(targets=False)).criteria[0].verified is False


def test_a_criterion_that_does_not_hold_fails_and_caps_fail_anyway():
    llm = _llm({"c1": {"evidence": "", "holds": False}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory(targets=False)).success == 0.0
    llm = _llm({"c1": {"evidence": "Tora", "holds": True}, "c2": {"evidence": "Submit", "holds": True}})
    assert EvidenceJudge(llm).judge(TASK, _trajectory(stop_reason="max_actions")).success == 0.0
    assert llm.calls == 0  # a capped episode fails without a call


def test_refined_criteria_replace_the_task_clauses():
    llm = _llm({"c1": {"evidence": "Tora", "holds": True}})
    judgement = EvidenceJudge(llm).judge(TASK, _trajectory(targets=False),
                                         criteria=["The answer should include 'Tora'"])
    assert [c.criterion for c in judgement.criteria] == ["The answer should include 'Tora'"]
    assert judgement.success == 1.0


def test_unreadable_checks_get_one_retry_then_raise():
    replies = iter(["not json", json.dumps({"c1": {"evidence": "Tora", "holds": True},
                                            "c2": {"evidence": "Submit", "holds": True}})])
    llm = ScriptedLLM(lambda request: next(replies))
    assert EvidenceJudge(llm).judge(TASK, _trajectory(targets=False)).success == 1.0 and llm.calls == 2
    with pytest.raises(LLMOutputError):
        EvidenceJudge(ScriptedLLM(lambda request: '{"c1": {"holds": "maybe"}}')).judge(TASK, _trajectory(targets=False))


def test_no_model_checks_the_criteria_words_in_the_log():
    assert EvidenceJudge(None).judge(TASK, _trajectory()).success == 1.0
    assert EvidenceJudge(None).judge(TASK, _trajectory(typed="Tara")).success == 0.0
    assert EvidenceJudge(None).judge(TASK, _trajectory(typed="tora")).success == 0.0  # a typed value is exact


def _no_call(request):
    raise AssertionError("the judge asked the model about criteria the program decides")


def test_the_program_decides_verified_and_refuted_criteria_without_a_call():
    judgement = EvidenceJudge(ScriptedLLM(_no_call)).judge(TASK, _trajectory())
    assert judgement.success == 1.0 and [c.decided_by for c in judgement.criteria] == ["program", "program"]
    assert judgement.criteria[0].evidence == 'fill "textbox" with "Tora"'
    refuted = EvidenceJudge(ScriptedLLM(_no_call)).judge(TASK, _trajectory(typed="Tara"))
    assert refuted.success == 0.0 and refuted.criteria[0].status == "refuted"


def test_a_qualifier_the_program_cannot_check_fails_with_no_model_and_goes_to_the_model_alone():
    task = 'Type "Tora" in upper case letters into the text field and press Submit.'
    judgement = EvidenceJudge(None).judge(task, _trajectory(task=task))
    assert judgement.success == 0.0 and judgement.criteria[0].status == "unsure"
    assert "upper case letters" in judgement.criteria[0].why and judgement.criteria[1].status == "verified"
    llm = _llm({"c1": {"evidence": 'fill [id: 4] text field with "Tora"', "holds": False}})
    judged = EvidenceJudge(llm).judge(task, _trajectory(task=task))
    assert llm.requests[0].json_schema["required"] == ["c1"]  # only the criterion the program could not check
    assert "upper case" in llm.requests[0].messages[-1].content.split("## Criteria", 1)[1]
    assert judged.success == 0.0 and judged.criteria[0].decided_by == "model"
    yes = _llm({"c1": {"evidence": 'fill [id: 4] text field with "Tora"', "holds": True}})
    assert EvidenceJudge(yes).judge(task, _trajectory(task=task)).success == 1.0
    copied = _llm({"c1": {"evidence": "Tora in upper case letters", "holds": True}})  # the criterion's own words
    assert EvidenceJudge(copied).judge(task, _trajectory(task=task)).success == 0.0


def test_order_undo_and_role_only_criteria():
    from scrapesmith.insta.verify import verify_criteria

    one, two = (Element(id=n, tag="button", role="button", text=name) for n, name in ((1, "ONE"), (2, "TWO")))
    box = Element(id=3, tag="input", role="checkbox", text="Lurline", checked=False)

    def run(*acts):
        steps = [Step(url="u", observation="", action=action, target=target) for action, target in acts]
        return Trajectory(task="t", start_url="u", steps=steps, policy="candidates")

    click = lambda e: (Action(action_key="click", target_element_id=e.id), e)
    check = lambda e, on: (Action(action_key="set_checked", action_kwargs={"checked": on}, target_element_id=e.id), e)
    task = "Click button ONE, then click button TWO."
    criteria = task_criteria(task)
    assert [v.status for v in verify_criteria(task, criteria, run(click(one), click(two)))] == ["verified"] * 2
    assert [v.status for v in verify_criteria(task, criteria, run(click(two), click(one)))] == ["verified", "unsure"]
    task = "Select Lurline and click Submit."
    submit = Element(id=4, tag="button", role="button", text="Submit")
    criteria = task_criteria(task)
    assert [v.status for v in verify_criteria(task, criteria, run(check(box, True), click(submit)))] == ["verified"] * 2
    undone = run(check(box, True), check(box, False), click(submit))
    assert [v.status for v in verify_criteria(task, criteria, undone)] == ["refuted", "verified"]
    assert verify_criteria("Click the button.", ["Click the button"], run(click(one)))[0].status == "verified"
    assert verify_criteria("Click the link.", ["Click the link"], run(click(one)))[0].status == "refuted"
    assert verify_criteria("Focus the 3rd input", ["Focus the 3rd input"], run())[0].status == "refuted"


def test_a_means_clause_holds_with_what_it_leads_to_and_a_count_is_unsure():
    from scrapesmith.insta.verify import verify_criteria

    link = Element(id=7, tag="a", role="link", text="ut.")
    tab = Element(id=2, tag="a", role="tab", text="Tab #2")
    steps = [Step(url="u", observation="", action=Action(action_key="click", target_element_id=e.id), target=e)
             for e in (tab, link)]
    trajectory = Trajectory(task="t", start_url="u", steps=steps, policy="candidates")
    task = 'Switch between the tabs to find and click on the link "ut.".'
    verdicts = verify_criteria(task, task_criteria(task), trajectory)
    assert [v.status for v in verdicts] == ["verified", "verified"] and verdicts[0].why == "means"
    task = 'Click the link "ut." on all pages.'
    assert verify_criteria(task, [task], trajectory)[0].status == "unsure"


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
    for site, typed in {"good.test": "Tora", "bad.test": "Tara"}.items():  # the program refutes the wrong value
        trajectory = _trajectory(typed=typed)
        trajectory.steps[0].candidates = [f'c1: fill [id: 4] text field (empty) with "{typed}"', "c2: stop: the task is done"]
        trajectory.steps[0].response = '{"reason": "type first", "candidate": "c1"}'
        store.append(SiteResult(site=site, url=f"http://{site}/", status="ok", trajectory=trajectory,
                                judgement=EvidenceJudge(None).judge(TASK, trajectory)))
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


@pytest.mark.browser
def test_no_model_judge_on_miniwob_agrees_with_the_page_reward(browser_session):
    """Real episodes of the no-model policy: typed exactly as quoted and submitted (success), a word typed
    where a click was asked, a value typed in lower case for "in upper case" (failures the old word check
    called successes)."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob
    from scrapesmith.insta.chooser import CandidatePolicy

    result = evaluate_miniwob(browser_session, lambda env: CandidatePolicy(None),
                              ["enter-text", "click-widget", "enter-text-2"], episodes=1, seed=0, max_actions=6,
                              judge=EvidenceJudge(None))
    assert [(case["reward"] > 0, case["judge_success"]) for case in result.cases] == [
        (True, 1.0), (False, 0.0), (False, 0.0)]


def test_a_container_a_click_on_the_instruction_and_a_goal_after_use_are_not_evidence():
    from scrapesmith.insta.verify import verify_criteria

    def one(task, element):
        step = Step(url="u", observation="", action=Action(action_key="click", target_element_id=element.id),
                    target=element)
        return verify_criteria(task, [task], Trajectory(task=task, start_url="u", steps=[step], policy="candidates"))[0]

    menu = Element(id=1, tag="ul", role="menu", text="Xaviera Laurie Elvera Angeline Melinde Leila Jillayne")
    assert one("Select Xaviera>Laurie>Melinde", menu).status == "refuted"  # every word of the menu, not an item
    assert one("Select Laurie", Element(id=2, tag="li", role="menuitem", text="Laurie")).status == "verified"
    task = "Select the following color with the color picker"
    assert one(task, Element(id=3, tag="div", role="text", text=task + " and hit Submit.")).status != "verified"
    terminal = Element(id=4, tag="div", role="text", text="terminal")
    assert one("Use the terminal below to delete a file ending with .py", terminal).status == "unsure"
    trash = Element(id=5, tag="span", role="clickable", text="trash")
    assert one("click the trash icon to delete it", trash).status == "verified"


def test_expand_is_decided_by_the_final_pages_live_state():
    from scrapesmith.insta.verify import verify_criteria

    submit = Element(id=21, tag="p", role="tab", text="Submit", expanded="collapsed")
    step = Step(url="u", observation="", action=Action(action_key="click", target_element_id=21), target=submit)
    task = "Expand the section below and click submit."

    def judged(final):
        trajectory = Trajectory(task=task, start_url="u", steps=[step], policy="candidates", final_observation=final)
        return [v.status for v in verify_criteria(task, task_criteria(task), trajectory)]

    assert judged(f"{task}\n\n[id: 18] Section #40 tab (collapsed) [id: 21] Submit tab (collapsed)") == [
        "refuted", "verified"]
    assert judged(f"{task}\n\n[id: 18] Section #40 tab (expanded)\n\nLorem [id: 30] Submit button") == [
        "verified", "verified"]


def test_a_link_named_by_the_quoted_value_is_the_target_not_the_instruction():
    """"Open the "The Crimson Engine" page": the link's name is most of the task's words, yet it is the target;
    a glyph after the quoted name ("2023-Q2 ›") does not make it another name."""
    from scrapesmith.insta.verify import verify_criteria

    for task, name in (('Open the "The Crimson Engine" page.', "The Crimson Engine"), ('Open the "2023-Q2 ›" page.', "2023-Q2")):
        link = Element(id=9, tag="a", role="link", text=name)
        step = Step(url="u", observation="", action=Action(action_key="click", target_element_id=9), target=link)
        trajectory = Trajectory(task=task, start_url="u", steps=[step], policy="candidates")
        assert verify_criteria(task, task_criteria(task), trajectory)[0].status == "verified"


def test_a_value_the_task_does_not_quote_is_never_verified_by_the_program():
    """"type your answer into the textbox": a field whose id says "answer" shows where it was typed, not
    that the value is right; with nothing typed the criterion is refuted."""
    from scrapesmith.insta.verify import verify_criteria

    field = Element(id=17, tag="input", role="textbox", hint="math-answer", value="")
    task = "Solve the math problem and type your answer into the textbox."
    step = Step(url="u", observation="", action=Action(action_key="fill", action_kwargs={"value": "7 + 0 ="},
                                                       target_element_id=17), target=field)
    typed = Trajectory(task=task, start_url="u", steps=[step], policy="candidates")
    assert verify_criteria(task, ["type your answer into the textbox"], typed)[0].status == "unsure"
    nothing = Trajectory(task=task, start_url="u", steps=[], policy="candidates")
    assert verify_criteria(task, ["type your answer into the textbox"], nothing)[0].status == "refuted"


def _acted(task: str, *acts: tuple[str, Element, str | None]) -> list[str]:
    """The statuses the program gives the task's criteria after ``acts`` (kind, element, value typed)."""
    from scrapesmith.insta.verify import verify_criteria

    steps = [Step(url="u", observation="", target=element,
                  action=Action(action_key=kind, action_kwargs={"value": value} if value else {},
                                target_element_id=element.id)) for kind, element, value in acts]
    trajectory = Trajectory(task=task, start_url="u", steps=steps, policy="candidates")
    return [v.status for v in verify_criteria(task, task_criteria(task), trajectory)]


def test_a_description_before_a_name_is_not_a_requirement_the_element_must_show():
    """"the email by Deva", "the folder or file named "Emile"": the name identifies the thing; a row shows
    "Deva", not "email". A word beside the name that is no description still must show."""
    deva, star = Element(id=1, tag="span", role="text", text="Deva"), Element(id=2, tag="span", role="clickable",
                                                                              text="star")
    task = "Find the email by Deva and click the star icon to mark it as important."
    assert _acted(task, ("click", deva, None), ("click", star, None)) == ["verified", "verified"]
    assert _acted("Find the email by Ina and click the star icon.", ("click", deva, None), ("click", star, None)
                  )[0] != "verified"
    emile = Element(id=3, tag="li", role="text", text="Emile")
    task = 'Navigate through the file tree. Find and click on the folder or file named "Emile".'
    assert _acted(task, ("click", emile, None)) == ["verified", "verified"]  # the first clause is the way there
    assert _acted('Navigate through the file tree.', ("click", emile, None)) == ["unsure"]  # nothing follows it
    assert _acted('Click on the "Emile" entry in the blue folder.', ("click", emile, None)) == ["unsure"]


def test_a_close_glyph_a_by_clause_and_a_written_count():
    close = Element(id=1, tag="button", role="button", text="Close", label="Close")
    assert _acted('Close the dialog box by clicking the "x".', ("click", close, None)) == ["verified"]
    assert _acted('Click the button in the dialog box labeled "x".', ("click", close, None)) == ["verified"]
    ok = Element(id=2, tag="button", role="button", text="OK")
    assert _acted('Close the dialog box by clicking the "x".', ("click", ok, None)) == ["refuted"]
    posts = [Element(id=10 + n, tag="span", role="icon", text="retweet", context=f"{who} @{who} text")
             for n, who in enumerate(("enola", "enola", "ada"))]
    submit = Element(id=20, tag="button", role="button", text="Submit")
    task = 'Click the "Retweet" button on 1 post by @enola and then click Submit.'
    assert _acted(task, ("click", posts[0], None), ("click", submit, None)) == ["verified", "verified"]
    two = ("click", posts[0], None), ("click", posts[1], None), ("click", submit, None)
    assert _acted(task, *two)[0] == "unsure"  # two posts where one was asked
    assert _acted(task.replace("1 post", "2 posts"), *two)[0] == "verified"
    assert _acted(task, ("click", posts[0], None), ("click", posts[2], None), ("click", submit, None))[0] == "unsure"
    assert _acted(task, ("click", posts[0], None), ("click", posts[0], None), ("click", submit, None))[0] == "unsure"


def test_a_reply_needs_a_send_click_after_the_text():
    sender, field = Element(id=1, tag="span", role="text", text="Ina"), Element(id=2, tag="textarea", role="textbox")
    send = Element(id=3, tag="span", role="clickable", text="", hint="send-reply")
    task = 'Find the email by Ina and reply to them with the text "Hi there".'
    typed = ("click", sender, None), ("fill", field, "Hi there")
    assert _acted(task, *typed) == ["verified", "unsure"]
    assert _acted(task, *typed, ("click", send, None)) == ["verified", "verified"]


def test_a_handle_must_show_with_its_sign_even_when_its_word_is_a_stopword():
    """"on 1 post by @at": the share icon of @ut's post is not it (the no-model source run's one false positive,
    social-media-some seed 8: "at" was dropped as a stopword), nor a row that has the word "at" without the sign."""
    def share(n: int, row: str) -> Element:
        return Element(id=n, tag="span", role="icon", text="share", context=row)

    submit = Element(id=9, tag="button", role="button", text="Submit")
    task = 'Click the "Share" button on 1 post by @at and then click Submit.'
    wrong, word, right = share(1, "Hancock @ut Sagittis."), share(2, "Laina @dui Meet at noon."), share(3, "Agathe @at Sit.")
    assert _acted(task, ("click", wrong, None), ("click", submit, None))[0] != "verified"
    assert _acted(task, ("click", word, None), ("click", submit, None))[0] != "verified"
    assert _acted(task, ("click", right, None), ("click", submit, None)) == ["verified", "verified"]
