"""Values the page gives that the task does not quote (``insta.page_values``): the problem a page shows, solved, and
the value beside a label; then, on real MiniWoB++ pages in real Chromium, a workflow step that types what the page
gives earns the page's reward and the evidence judge verifies it, while a wrong value typed there is refuted."""

from __future__ import annotations

import pytest

from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.page_values import key_values, labelled_fields, page_values, solve
from scrapesmith.insta.values import satisfies, value_constraints
from scrapesmith.insta.workflow import WorkflowPolicy
from scrapesmith.insta.workflow.views import Locator, Parameter, ValueRef, Workflow, WorkflowStep

TABLE = """Enter the value of Language into the text field and press Submit.

| Religion | Hinduism |
| --- | --- |
| First name | Amalie |
| Language | Bengali |

Language: [id: 35] "" (text input)

Gender: [id: 38] "" (text input)"""


@pytest.mark.parametrize(("problem", "value"), [
    ("7 + 0 =", "7"), ("12 / 4 =", "3"), ("6 × 7 =", "42"), ("3 x 4 =", "12"), ("9 − 12 =", "-3"),
    ("x + 7 = 5", "-2"), ("3 - x = 1", "2"), ("3x = 12", "4"), ("2 * y + 1 = 8", "3.5")])
def test_the_problem_a_page_shows_is_solved(problem, value):
    assert solve(problem) == value


@pytest.mark.parametrize("text", ["2 + 2 = 4", "x * x = 4", "a + b = 3", "5 = 5", "x =", "Total: 5",
                                  "Page 1 - 2 = next", "1 / 0 ="])
def test_what_is_no_problem_of_one_value_gives_none(text):
    assert solve(text) is None


def test_the_value_beside_the_label_the_task_or_the_field_names():
    assert [v.value for v in page_values("Enter the value of Language into the text field", TABLE)] == ["Bengali"]
    assert [v.value for v in page_values("Enter the value that corresponds with each label", TABLE, "Religion:")] \
        == ["Hinduism"]
    assert page_values("Enter the value of Height into the text field", TABLE) == []  # no such row
    # a field with no label of its own: the text printed before it ("Language: [id: 35]") labels it
    assert [v.value for v in page_values("Enter the value that corresponds with each label", TABLE, "", 35)] \
        == ["Bengali"]
    assert labelled_fields(TABLE) == {35: "Language"}  # Gender has no row
    assert "language" in key_values(TABLE) and "---" not in key_values(TABLE)


def test_two_problems_on_a_page_give_no_value():
    assert page_values("Solve the problem and type your answer", "3 + 4 =\n\n5 + 5 =") == []
    assert [v.value for v in page_values("Solve the problem", "3 + 4 =\n\n3 + 4 =")] == ["7"]


def _workflow(task: str, value: ValueRef) -> Workflow:
    typed = WorkflowStep(action="fill", locators=[Locator(kind="css", value="input")], value=value)
    submit = WorkflowStep(action="click", locators=[Locator(kind="css", value="button")])
    return Workflow(family=f"127.0.0.1/miniwob/{task}.html", start_url=f"http://127.0.0.1/miniwob/{task}.html",
                    template="", steps=[typed, submit])


@pytest.mark.browser
@pytest.mark.parametrize(("task", "reading"), [("simple-arithmetic", "computed"), ("simple-algebra", "computed"),
                                               ("read-table", "labelled")])
def test_a_value_the_page_gives_is_typed_verified_and_a_wrong_one_refuted(browser_session, task, reading):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    def run(value: ValueRef) -> list[dict]:
        workflows = [_workflow(task, value)]
        return evaluate_miniwob(browser_session, lambda env: WorkflowPolicy(workflows, observe=env.observe,
                                                                            by_kind=True),
                                [task], episodes=2, seed=100, max_actions=4, judge=EvidenceJudge(None)).cases

    right = run(ValueRef(source="page", reading=reading))
    assert [case["reward"] > 0 for case in right] == [True, True], right
    assert [case["judge_success"] > 0.5 for case in right] == [True, True], right
    wrong = run(ValueRef(source="constant", constant="1000"))  # no answer any of these pages has
    assert [case["reward"] > 0 for case in wrong] == [False, False], wrong
    assert [case["judge_success"] > 0.5 for case in wrong] == [False, False], wrong


def test_what_a_task_asks_of_a_value_it_does_not_give_whole():
    task = 'Enter an item that starts with "Sa" and ends with "ino".'
    assert value_constraints(task) == [("starts", "Sa"), ("ends", "ino")]
    assert satisfies("San Marino", value_constraints(task))
    assert not satisfies("Saint Helena", value_constraints(task)) and not satisfies("", value_constraints(task))
    assert value_constraints('a name that contains "ell"') == [("contains", "ell")]


@pytest.mark.browser
def test_a_suggestion_that_meets_the_task_is_chosen_and_verified_and_a_field_that_does_not_is_refuted(browser_session):
    """MiniWoB's use-autocomplete-nodelay, instances asking for both ends: the suggestion is found by what the task
    asks of it (``satisfies``), not by its name in the instance a workflow was compiled from."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    typed = WorkflowStep(action="fill", locators=[Locator(kind="css", value="input")],
                         value=ValueRef(source="parameter", parameter="p1"))
    pick = WorkflowStep(action="click", locators=[Locator(kind="satisfies", role="option",
                                                          value='starts with "{p1}" and ends with "{p2}"')])
    submit = WorkflowStep(action="click", locators=[Locator(kind="css", value="button")])

    def run(steps: list[WorkflowStep]) -> list[dict]:
        workflow = Workflow(family="127.0.0.1/miniwob/use-autocomplete-nodelay.html", steps=steps,
                            start_url="http://127.0.0.1/miniwob/use-autocomplete-nodelay.html",
                            template='Enter an item that starts with "{p1}" and ends with "{p2}".',
                            parameters=[Parameter(name="p1", kind="quoted"),
                                        Parameter(name="p2", kind="quoted", ordinal=2)])
        return evaluate_miniwob(browser_session, lambda env: WorkflowPolicy([workflow], observe=env.observe),
                                ["use-autocomplete-nodelay"], episodes=2, seed=100, max_actions=4,
                                judge=EvidenceJudge(None)).cases

    chosen = run([typed, pick, submit])
    assert [(case["reward"] > 0, case["judge_success"] > 0.5) for case in chosen] == [(True, True)] * 2, chosen
    prefix_only = run([typed, submit])  # the field keeps the typed start: the page's end is not met
    assert [(case["reward"] > 0, case["judge_success"] > 0.5) for case in prefix_only] == [(False, False)] * 2


def test_a_field_that_meets_the_task_counts_only_once_its_form_is_sent():
    from scrapesmith.insta.verify import verify_criteria
    from scrapesmith.insta.views import Action, Element, Step, Trajectory

    task = 'Enter an item that starts with "Om".'
    page = '[id: 20] "{}" (Tags: text input) [id: 21] Submit button'
    field = Element(id=20, role="textbox", tag="input", label="Tags:")
    typed = Step(url="", observation=page.format(""), target=field,
                 action=Action(action_key="fill", action_kwargs={"value": "Oman"}, target_element_id=20))
    sent = Step(url="", observation=page.format("Oman"), target=Element(id=21, role="button", tag="button",
                                                                         text="Submit"),
                action=Action(action_key="click", target_element_id=21))

    def verdict(steps: list[Step]) -> str:
        trajectory = Trajectory(task=task, policy="candidates", start_url="", steps=steps,
                                final_observation=page.format("Oman"))
        return verify_criteria(task, [task.rstrip(".")], trajectory)[0].status

    assert verdict([typed, sent]) == "verified"
    assert verdict([typed]) == "unsure"  # typed, never sent


@pytest.mark.browser
def test_a_step_done_on_every_item_the_page_shows_earns_the_reward_and_a_missed_item_is_not_verified(
        browser_session, tmp_path):
    """MiniWoB's social-media-all: "on all posts by @x" is as many posts as the page prints the handle on; a workflow
    step marked ``each`` clicks every one, and the same episode with one of its clicks left out is not verified."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob
    from scrapesmith.insta.store import ResultStore
    from scrapesmith.insta.workflow import compile_workflows

    each = WorkflowStep(action="click", options={"each": True},
                        locators=[Locator(kind="role", role="icon", value="{p1}", context="{p2}")])
    submit = WorkflowStep(action="click", locators=[Locator(kind="role", role="button", value="Submit")])
    workflow = Workflow(family="127.0.0.1/miniwob/social-media-all.html", steps=[each, submit],
                        start_url="http://127.0.0.1/miniwob/social-media-all.html",
                        template='Click the "{p1}" button on all posts by {p2} and then click Submit.',
                        parameters=[Parameter(name="p1", kind="quoted"), Parameter(name="p2", kind="name")])
    result = evaluate_miniwob(browser_session, lambda env: WorkflowPolicy([workflow], observe=env.observe),
                              ["social-media-all"], episodes=2, seed=100, max_actions=8, judge=EvidenceJudge(None),
                              run_dir=tmp_path, screenshots=False)
    assert [(case["reward"] > 0, case["judge_success"] > 0.5) for case in result.cases] == [(True, True)] * 2
    trajectories = [r.trajectory for r in ResultStore(tmp_path).latest().values()]
    several = next(t for t in trajectories if sum(s.path == "workflow:1" for s in t.steps) >= 2)  # 2+ posts by @x
    first_click = next(i for i, s in enumerate(several.steps) if s.path == "workflow:1")
    missed = several.model_copy(update={"steps": several.steps[:first_click] + several.steps[first_click + 1:]})
    assert EvidenceJudge(None).judge(several.task, several).succeeded
    assert not EvidenceJudge(None).judge(missed.task, missed).succeeded
    [compiled] = compile_workflows(ResultStore(tmp_path).latest().values()).workflows  # episodes of 2+ clicks each
    assert [step.options.get("each", False) for step in compiled.steps] == [True, False], compiled.describe()


@pytest.mark.browser
def test_a_read_takes_the_word_the_new_task_names_not_the_episodes(browser_session):
    """MiniWoB's find-word: "the 3rd word in the paragraph" in one instance, another ordinal in the next; the read
    step compiled with the episode's word number reads the one the new task names."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    read = WorkflowStep(action="read", options={"word": 1}, locators=[Locator(kind="source", value="{p1}")])
    typed = WorkflowStep(action="fill", locators=[Locator(kind="css", value="input")],
                         value=ValueRef(source="read", read=0))
    submit = WorkflowStep(action="click", locators=[Locator(kind="css", value="button")])
    workflow = Workflow(family="127.0.0.1/miniwob/find-word.html", steps=[read, typed, submit],
                        start_url="http://127.0.0.1/miniwob/find-word.html",
                        template='Find {p1}, type that into the textbox and press "{p2}".',
                        parameters=[Parameter(name="p1", kind="words"), Parameter(name="p2", kind="quoted")])
    cases = evaluate_miniwob(browser_session, lambda env: WorkflowPolicy([workflow], observe=env.observe),
                             ["find-word"], episodes=2, seed=100, max_actions=4, judge=EvidenceJudge(None)).cases
    assert [(case["reward"] > 0, case["judge_success"] > 0.5) for case in cases] == [(True, True)] * 2, cases


def test_marking_things_as_something_is_no_place_to_go():
    """"Mark the numbers below as odd or even and press submit": marking asks for a state of each number; it is no
    clause saying only where to go, so a Submit click alone does not make the episode verified."""
    from scrapesmith.insta.verify import verify_criteria
    from scrapesmith.insta.views import Action, Element, Step, Trajectory

    task = "Mark the numbers below as odd or even and press submit when done."
    submit = Step(url="", observation="[id: 9] Submit button", target=Element(id=9, role="button", tag="button",
                                                                            text="Submit"),
                  action=Action(action_key="click", target_element_id=9))
    trajectory = Trajectory(task=task, policy="candidates", start_url="", steps=[submit], final_observation="")
    verdicts = verify_criteria(task, ["Mark the numbers below as odd or even", "press submit when done"], trajectory)
    assert verdicts[0].status != "verified"


def test_press_login_is_the_forms_one_send_control_whatever_its_label_and_not_a_dialogs():
    from scrapesmith.insta.verify import verify_criteria
    from scrapesmith.insta.views import Action, Element, Step, Trajectory

    task = 'Enter the username "ada" into the text field and press login.'
    form = 'Username [id: 20] "ada" (text input)\n\n[id: 24] OK button'
    dialog = form + "\n\nExit to home page?\n\n[id: 30] OK button [id: 31] Cancel button"
    field = Element(id=20, role="textbox", tag="input", label="Username")
    typed = Step(url="", observation=form.replace('"ada"', '""'), target=field,
                 action=Action(action_key="fill", action_kwargs={"value": "ada"}, target_element_id=20))

    def verdict(page: str, ident: int) -> str:
        ok = Step(url="", observation=page, target=Element(id=ident, role="button", tag="button", text="OK"),
                  action=Action(action_key="click", target_element_id=ident))
        trajectory = Trajectory(task=task, policy="candidates", start_url="", steps=[typed, ok], final_observation="")
        clauses = ['Enter the username "ada" into the text field', "press login"]
        return verify_criteria(task, clauses, trajectory)[1].status

    assert verdict(form, 24) == "verified"
    assert verdict(dialog, 30) != "verified"  # two controls that send: which one logs in is unknown
