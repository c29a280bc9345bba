"""Candidate actions: enumeration and grounding (quoted values, labels, options) on hand-made elements,
a demo page and MiniWoB++ pages in real Chromium; the chooser's schema admits only the ids offered."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from scrapesmith.insta.candidates import candidate_actions, ground_task, mentions, quoted_values
from scrapesmith.insta.chooser import CandidatePolicy, ChooserConfig, candidates_for, choice_schema
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.views import Element, Observation
from scrapesmith.llm.scripted import ScriptedLLM

FORM = [
    Element(id=3, tag="input", role="textbox", label="Username", hint="username", input_type="text", value=""),
    Element(id=4, tag="input", role="textbox", label="Password", hint="password", input_type="password", value=""),
    Element(id=5, tag="select", role="select", label="Team", value="All", options=["All", "Design", "Sales"]),
    Element(id=6, tag="input", role="checkbox", label="Remember me", checked=False),
    Element(id=7, tag="button", role="button", text="Log in"),
    Element(id=8, tag="a", role="link", text="Help"),
]


def _by_action(candidates, key, target=None):
    return [c for c in candidates if c.action.action_key == key and (target is None or c.action.target_element_id == target)]


def test_quoted_values_and_whole_word_mentions():
    assert quoted_values('Enter "Tora" and \'Design\' but not don\'t, “Ann Lee”') == ["Tora", "Design", "Ann Lee"]
    assert mentions("Select Lurline and click Submit.", "submit")
    assert not mentions("Select Lurline and click Submit.", "Sub") and not mentions("click the button", "the")


def test_values_to_type_go_to_the_field_the_task_names_them_for():
    task = 'Enter the username "kanesha" and the password "9iJq" and press Log in.'
    grounding = ground_task(task, FORM)
    assert grounding.to_type == ["kanesha", "9iJq"]
    candidates = candidate_actions(task, FORM)
    best_fill = {c.action.target_element_id: c for c in sorted(_by_action(candidates, "fill"), key=lambda c: -c.score)[::-1]}
    assert best_fill[3].action.action_kwargs["value"] == "kanesha" and best_fill[4].action.action_kwargs["value"] == "9iJq"
    assert candidates[0].action.action_kwargs == {"value": "kanesha"}  # the task's first step comes first
    assert [c.id for c in candidates] == [f"c{n}" for n in range(1, len(candidates) + 1)]
    assert candidates[-1].action.is_stop and candidates[-1].free
    assert not any(c.free for c in _by_action(candidates, "fill"))  # the values come from the task


def test_named_option_checkbox_and_button_are_grounded():
    task = "Choose Design as the team, tick Remember me and click Log in"
    candidates = candidate_actions(task, FORM)
    select = max(_by_action(candidates, "select_option"), key=lambda c: c.score)
    assert select.action.action_kwargs == {"label": "Design"} and select.grounded == ["Design"]
    assert not any(c.action.action_kwargs.get("label") == "All" for c in candidates)  # already chosen
    check = _by_action(candidates, "set_checked", 6)[0]
    button = _by_action(candidates, "click", 7)[0]
    help_link = _by_action(candidates, "click", 8)[0]
    assert select.score > check.score > button.score > help_link.score  # in the task's order, named first
    assert any(c.free and c.action.action_key == "fill" for c in candidates)  # nothing quoted to type


def test_done_actions_are_not_offered_again():
    done = [FORM[0].model_copy(update={"value": "kanesha"}), FORM[1],
            FORM[3].model_copy(update={"checked": True}), FORM[4]]
    task = 'Enter the username "kanesha" and the password "9iJq", tick Remember me and press Log in.'
    candidates = candidate_actions(task, done)
    assert not _by_action(candidates, "fill", 3) or all(c.action.action_kwargs["value"] != "kanesha"
                                                        for c in _by_action(candidates, "fill"))
    assert not any(c.action.action_kwargs == {"checked": True} for c in _by_action(candidates, "set_checked", 6))
    assert _by_action(candidates, "fill", 4)[0].action.action_kwargs == {"value": "9iJq"}


def test_schema_enum_admits_only_offered_ids():
    candidates = candidate_actions("click Help", FORM, limit=5)
    schema = choice_schema(candidates)
    jsonschema.validate({"reason": "help first", "candidate": "c1"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"reason": "x", "candidate": "c6"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"reason": "x", "candidate": "7"}, schema)


def _observation(elements):
    return Observation(url="http://127.0.0.1/form", markdown="# Form", elements=elements)


def _no_call(request):
    raise AssertionError(f"the model was asked although the grounding decides: {request.messages[-1].content[-300:]}")


def test_model_is_not_asked_where_the_grounding_decides():
    llm = ScriptedLLM(_no_call)
    policy = CandidatePolicy(llm)
    step = policy.act('Enter the username "kanesha" and press Log in.', [], _observation(FORM))
    assert step.action.action_key == "fill" and step.action.action_kwargs == {"value": "kanesha"}
    assert step.asked is False and llm.calls == 0 and step.candidate.startswith("fill [id: 3]")
    assert json.loads(step.response)["candidate"] == "c1"  # recorded as the answer a chooser would give
    assert step.candidates and step.candidates[0].startswith("c1: fill [id: 3]")  # every candidate, as ranked


TWIN_BUTTONS = [Element(id=10, tag="button", role="button", text="Retweet", context="@ann: hello"),
                Element(id=11, tag="button", role="button", text="Retweet", context="@bob: hi"),
                Element(id=12, tag="button", role="button", text="Submit")]


def test_model_chooses_only_among_tied_candidates_and_its_choice_is_recorded():
    """Two "Retweet" buttons the task's words cannot tell apart: the model, asked to break ties, is offered those two only."""
    llm = ScriptedLLM(lambda request: json.dumps({"reason": "the second post", "candidate": request.json_schema[
        "properties"]["candidate"]["enum"][1]}))
    step = CandidatePolicy(llm, ChooserConfig(ask_ties=True)).act('Click the "Retweet" button.', [], _observation(TWIN_BUTTONS))
    assert llm.calls == 1 and step.asked is True
    enum = llm.requests[0].json_schema["properties"]["candidate"]["enum"]
    assert len(enum) == 2 and "value" not in llm.requests[0].json_schema["properties"]
    assert [line.split(":")[0] for line in step.candidates] == enum  # the lines the model was shown
    assert all('"Retweet" button' in line for line in step.candidates)
    assert step.action.target_element_id == 11 and step.reason == "the second post"
    assert "Submit" not in llm.requests[0].messages[1].content.split("## Candidate Actions", 1)[1]


def test_the_task_words_in_a_row_break_the_tie_without_a_call():
    llm = ScriptedLLM(_no_call)
    step = CandidatePolicy(llm).act('For @bob, click the "Retweet" button.', [], _observation(TWIN_BUTTONS))
    assert step.action.target_element_id == 11 and step.asked is False and llm.calls == 0


def test_an_unknown_id_is_rejected_and_the_program_pick_is_taken():
    replies = iter([json.dumps({"reason": "x", "candidate": "c99"}), json.dumps({"reason": "x", "candidate": "c42"})])
    llm = ScriptedLLM(lambda request: next(replies))
    step = CandidatePolicy(llm, ChooserConfig(ask_ties=True)).act('Click the "Retweet" button.', [], _observation(TWIN_BUTTONS))
    assert llm.calls == 2 and step.asked is True and step.error is None  # one retry, then the grounding's pick
    assert step.action.target_element_id == 10 and "unreadable" in step.reason


def test_a_value_no_element_holds_is_written_by_the_model_then_submit_is_decided():
    elements = [Element(id=2, tag="input", role="textbox", input_type="text", value=""),
                Element(id=3, tag="button", role="button", text="Submit")]
    task = "Solve 3 + 4, type your answer into the textbox and press Submit."
    llm = ScriptedLLM(lambda request: json.dumps({"reason": "3 + 4 = 7", "candidate": request.json_schema[
        "properties"]["candidate"]["enum"][0], "value": "7"}))
    policy = CandidatePolicy(llm)
    step = policy.act(task, [], _observation(elements))
    schema = llm.requests[0].json_schema
    assert step.asked and "value" in schema["properties"] and len(schema["properties"]["candidate"]["enum"]) == 1
    assert step.action.action_key == "fill" and step.action.action_kwargs == {"value": "7"}
    empty = CandidatePolicy(ScriptedLLM(lambda request: json.dumps({"reason": "?", "candidate": "c1", "value": " "})))
    assert empty.act(task, [], _observation(elements)).action.target_element_id == 3  # no value: the program's pick
    no_model = CandidatePolicy(None).act(task, [], _observation(elements))  # takes the program's pick, never
    assert no_model.error is None and not no_model.asked and no_model.action.target_element_id == 3  # an empty value
    filled = [elements[0].model_copy(update={"value": "7"}), elements[1]]
    after = policy.act(task, [step], _observation(filled))
    assert after.action.target_element_id == 3 and after.asked is False and llm.calls == 1


def test_free_value_becomes_the_stop_answer():
    llm = ScriptedLLM(lambda request: json.dumps({"reason": "it says 42", "candidate": request.json_schema[
        "properties"]["candidate"]["enum"][-1], "value": "42 items"}))
    step = CandidatePolicy(llm, ChooserConfig(ask_ties=True)).act("How many items are there?", [], _observation(FORM))
    assert step.action.is_stop and step.action.answer == "42 items"


@pytest.mark.browser
def test_demo_page_grounding_puts_the_named_option_first(browser_session, demo_web):
    page = BrowserEnv(browser_session).reset(demo_web.url("/acme/careers/"))
    top = candidates_for('Show only the "Design" jobs in Berlin', [], page, 30)
    kinds = [(c.action.action_key, c.action.action_kwargs.get("label")) for c in top[:2]]
    assert kinds == [("select_option", "Design"), ("select_option", "Berlin")]
    unquoted = candidates_for("Open the Blog", [], page, 30)[0]
    assert unquoted.action.action_key == "click" and '"Blog" link' in unquoted.text


@pytest.fixture
def miniwob(browser_session):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import MiniwobEnv, serve_miniwob

    with serve_miniwob() as base:
        yield MiniwobEnv(browser_session), base


@pytest.mark.browser
def test_miniwob_login_fields_get_their_own_values(miniwob):
    env, base = miniwob
    page = env.reset(f"{base}/login-user.html?seed=4")
    values = quoted_values(env.state.utterance)
    top = candidates_for(env.state.utterance, [], page, 30)
    fills = [c for c in top if c.action.action_key == "fill"]
    first, second = fills[0], next(c for c in fills if c.action.action_kwargs != fills[0].action.action_kwargs
                                   and c.action.target_element_id != fills[0].action.target_element_id)
    assert [first.action.action_kwargs["value"], second.action.action_kwargs["value"]] == values
    assert "password" in second.text


@pytest.mark.browser
def test_miniwob_named_radio_and_list_option(miniwob):
    env, base = miniwob
    page = env.reset(f"{base}/click-option.html?seed=1")
    best = candidates_for(env.state.utterance, [], page, 30)[0]
    assert best.action.action_key == "set_checked" and best.grounded[0] in env.state.utterance
    page = env.reset(f"{base}/choose-list.html?seed=2")
    best = candidates_for(env.state.utterance, [], page, 30)[0]
    assert best.action.action_key == "select_option" and best.action.action_kwargs["label"] in env.state.utterance
    page = env.reset(f"{base}/choose-list.html?seed=1")  # the named option is the one shown: nothing to select
    select = next(element for element in page.elements if element.role == "select")
    assert select.value in env.state.utterance
    best = candidates_for(env.state.utterance, [], page, 30)[0]
    assert best.action.action_key == "click" and "Submit" in best.text


@pytest.mark.browser
def test_instruction_text_is_not_a_click_target(miniwob):
    """MiniWoB shows the task on the page; its words must not become targets of their own."""
    env, base = miniwob
    page = env.reset(f"{base}/enter-text.html?seed=2")
    top = candidates_for(env.state.utterance, [], page, 30)
    assert not any(c.action.action_key == "click" and "text" == c.text.rsplit(" ", 1)[-1] for c in top)
    assert top[0].action.action_key == "fill" and top[0].action.action_kwargs["value"] in env.state.utterance


@pytest.mark.browser
def test_no_model_policy_solves_grounded_tasks_by_the_page_reward(browser_session):
    """With no model the best grounded candidate is taken: typing into the right fields, choosing the named
    option, then submitting earns MiniWoB's own reward 1; each step reads as a chooser's JSON answer."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    result = evaluate_miniwob(browser_session, lambda env: CandidatePolicy(None),
                              ["login-user", "click-option", "choose-list", "enter-text"], episodes=1, seed=5,
                              max_actions=6)
    assert {case["task"]: case["reward"] for case in result.cases} == {
        "login-user": 1.0, "click-option": 1.0, "choose-list": 1.0, "enter-text": 1.0}
    assert result.summary["invalid_steps"] == 0


@pytest.mark.browser
def test_icons_by_class_and_rows_by_context(miniwob):
    """An icon without text is named by its class; among equal icons the one whose row holds the task's
    other words ranks first; a script-made button (pointer cursor) is a candidate."""
    env, base = miniwob
    page = env.reset(f"{base}/social-media.html?seed=0")
    user = next(word for word in env.state.utterance.split() if word.startswith("@")).strip(",")
    best = candidates_for(env.state.utterance, [], page, 30)[0]
    assert best.action.action_key == "click" and "icon" in best.text and user in best.text
    page = env.reset(f"{base}/multi-layouts.html?seed=0")
    assert any(c.action.action_key == "click" and '"Submit" clickable' in c.text
               for c in candidates_for(env.state.utterance, [], page, 30))


def test_a_value_the_task_asks_to_compute_is_typed_before_submitting():
    elements = [Element(id=2, tag="input", role="textbox", input_type="text", value=""),
                Element(id=3, tag="button", role="button", text="Submit")]
    candidates = candidate_actions("Solve 3 + 4, type your answer into the textbox and press Submit.", elements)
    assert candidates[0].free and candidates[0].action.action_key == "fill"
    assert candidates[1].action.target_element_id == 3


@pytest.mark.browser
def test_on_miniwob_the_model_is_asked_only_where_the_grounding_leaves_a_choice(browser_session):
    """Decisive tasks run without a call and earn reward 1; exploring tabs for a link is a tie among the tabs,
    and the model is offered those tabs only."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob
    from scrapesmith.insta.decide import MAX_OFFERED

    requests = []

    def first_offered(request):
        requests.append(request)
        return json.dumps({"reason": "first", "candidate": request.json_schema["properties"]["candidate"]["enum"][0]})

    policy = CandidatePolicy(ScriptedLLM(first_offered), ChooserConfig(ask_ties=True))
    decisive = evaluate_miniwob(browser_session, lambda env: policy, ["login-user", "enter-text", "click-option"],
                                episodes=1, seed=5, max_actions=6)
    assert [case["reward"] for case in decisive.cases] == [1.0, 1.0, 1.0]
    assert requests == [] and decisive.summary["asked_steps"] == 0
    tabs = evaluate_miniwob(browser_session, lambda env: policy, ["click-tab-2"], episodes=1, seed=0, max_actions=6)
    assert tabs.summary["asked_steps"] >= 1 and len(requests) == tabs.summary["asked_steps"]
    for request in requests:
        listed = request.messages[1].content.split("## Candidate Actions", 1)[1].strip().splitlines()
        offered = [line for line in listed if re.match(r"c\d+: ", line)]
        enum = request.json_schema["properties"]["candidate"]["enum"]
        assert 2 <= len(offered) <= MAX_OFFERED and all('"Tab #' in line for line in offered)
        assert [line.split(":")[0] for line in offered] == enum


def test_a_value_for_both_fields_is_typed_into_each_before_submitting():
    fields = [Element(id=2, tag="input", role="textbox", label="Password", input_type="password", value=""),
              Element(id=3, tag="input", role="textbox", label="Verify password", input_type="password", value=""),
              Element(id=4, tag="button", role="button", text="Submit")]
    task = 'Enter the password "rUT3X" into both text fields and press submit.'
    policy = CandidatePolicy(None)
    first = policy.act(task, [], _observation(fields))
    typed = [field.model_copy(update={"value": "rUT3X"}) if field.id == first.action.target_element_id else field
             for field in fields]
    second = policy.act(task, [first], _observation(typed))
    assert first.action.action_key == second.action.action_key == "fill"
    assert {first.action.target_element_id, second.action.target_element_id} == {2, 3}
    done = [field.model_copy(update={"value": "rUT3X"}) if field.role == "textbox" else field for field in fields]
    assert policy.act(task, [first, second], _observation(done)).action.target_element_id == 4
    one = 'Enter the password "rUT3X" into the text field and press submit.'  # one field: the value once
    again = policy.act(one, [first], _observation(typed))
    assert again.action.target_element_id == 4
