"""Workflows compiled from recorded episodes and replayed with no model, in real Chromium: on real MiniWoB++ pages
(the page's own reward decides), and on small pages served over HTTP on 127.0.0.1 where an element changed, a
field does not keep what was typed, or a value has no source."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scrapesmith.insta.agent import run_episode
from scrapesmith.insta.chooser import CandidatePolicy
from scrapesmith.insta.env import BrowserEnv
from scrapesmith.insta.evidence_judge import EvidenceJudge
from scrapesmith.insta.views import SiteResult
from scrapesmith.insta.workflow import WorkflowPolicy, compile_workflows, load_workflows, replay_task

pytestmark = pytest.mark.browser

FORM = """<!doctype html><html><body><h1>Contact</h1>
<label for="who">Name</label> <input id="who" name="who" {extra}>
<button id="go" onclick="document.getElementById('out').textContent = 'sent ' + document.getElementById('who').value">
{button}</button><p id="out"></p></body></html>"""
PAGES = {
    "/form": FORM.format(extra="", button="Send"),
    "/renamed": FORM.format(extra="", button="Submit now"),  # the button's text changed, its id did not
    "/shouting": FORM.format(extra="oninput=\"this.value = this.value.toUpperCase()\"", button="Send"),
}
TASK = 'Type "Ada" into the Name field and click Send.'


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGES.get(self.path.split("?")[0])
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write((body or "not found").encode())

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _recorded(session, url: str, task: str = TASK) -> SiteResult:
    """One episode of the no-model candidate policy, judged by the evidence judge, as a run stores it."""
    trajectory = run_episode(BrowserEnv(session), CandidatePolicy(None), task, url, max_actions=5)
    judgement = EvidenceJudge(None).judge(task, trajectory)
    return SiteResult(site=url, url=url, status="ok", trajectory=trajectory, judgement=judgement)


def _output(session) -> str:
    return session.evaluate("() => document.getElementById('out').textContent")


def test_a_workflow_compiled_from_an_episode_types_the_new_task_value(browser_session, site):
    recorded = _recorded(browser_session, f"{site}/form")
    assert recorded.judgement.succeeded and _output(browser_session) == "sent Ada"
    assert recorded.trajectory.steps[0].selectors["id"] == "who"  # the environment recorded how to find it again
    [workflow] = compile_workflows([recorded]).workflows
    # one episode cannot tell a fixed word from a parameter: every word a step used is one, bound by the template
    assert workflow.template == 'Type "{p2}" into the {p1} field and click {p3}.'
    fill, click = workflow.steps[:2]
    assert fill.value.source == "parameter" and [lo.kind for lo in fill.locators][:2] == ["role", "label"]
    assert fill.checks and click.action == "click"
    result = replay_task(browser_session, [workflow], 'Type "Grace Hopper" into the Name field and click Send.',
                         f"{site}/form")
    assert _output(browser_session) == "sent Grace Hopper"
    assert result.workflow["broken_step"] is None and result.judgement.succeeded
    assert all(step.path.startswith("workflow") for step in result.trajectory.steps)


def test_the_next_locator_finds_the_element_when_the_first_is_gone(browser_session, site):
    [workflow] = compile_workflows([_recorded(browser_session, f"{site}/form")]).workflows
    result = replay_task(browser_session, [workflow], 'Type "Grace" into the Name field and click Send.',
                         f"{site}/renamed")
    assert _output(browser_session) == "sent Grace"
    assert result.workflow["located_by"] == ["role", "id"]  # "Send" is gone from the button; its id is not


def test_a_failed_post_condition_stops_or_hands_the_episode_to_the_agent(browser_session, site):
    [workflow] = compile_workflows([_recorded(browser_session, f"{site}/form")]).workflows
    task = 'Type "Grace" into the Name field and click Send.'
    stopped = replay_task(browser_session, [workflow], task, f"{site}/shouting")
    assert stopped.workflow["broken_step"] == 1 and not stopped.workflow["fallback"]
    assert "holds 'GRACE', not 'Grace'" in stopped.trajectory.steps[-1].error
    assert _output(browser_session) == ""  # it stopped before clicking
    handed = replay_task(browser_session, [workflow], task, f"{site}/shouting", fallback=CandidatePolicy(None))
    assert handed.workflow["broken_step"] == 1 and handed.workflow["fallback"]
    paths = [step.path for step in handed.trajectory.steps]
    assert paths[0] == "workflow:1" and all(path.startswith("fallback:") for path in paths[1:]), paths
    assert "broke" in handed.trajectory.steps[1].reason


def test_a_workflow_never_types_a_value_it_was_not_given(browser_session, site):
    recorded = _recorded(browser_session, f"{site}/form")
    recorded.trajectory.steps[0].action.action_kwargs["value"] = "Lovelace"  # as if a model had written it
    [workflow] = compile_workflows([recorded]).workflows
    assert workflow.steps[0].value.source == "unbound"
    result = replay_task(browser_session, [workflow], TASK, f"{site}/form")
    assert result.workflow["broken_step"] == 1 and "not typed" in result.workflow["broken_why"]
    assert not any(step.action and step.action.action_key == "fill" for step in result.trajectory.steps)
    [bound] = compile_workflows([_recorded(browser_session, f"{site}/form")]).workflows
    missing = replay_task(browser_session, [bound], "Click Send.", f"{site}/form")  # no value to bind
    assert missing.workflow["broken_step"] == 0 and "quoted" in missing.workflow["broken_why"]
    assert not any(step.action and step.action.action_key == "fill" for step in missing.trajectory.steps)
    assert browser_session.evaluate("() => document.getElementById('who').value") == ""


def test_workflows_compiled_from_recorded_miniwob_episodes_earn_the_reward_on_new_seeds(browser_session, tmp_path):
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob

    tasks = ["login-user", "click-checkboxes"]
    recorded = evaluate_miniwob(browser_session, lambda env: CandidatePolicy(None), tasks, episodes=2, seed=0,
                                max_actions=8, judge=EvidenceJudge(None), run_dir=tmp_path, screenshots=False,
                                compile_workflows=True)
    assert recorded.params["workflows"]["compiled"] == 4
    workflows = load_workflows(tmp_path / "workflows")
    login = next(w for w in workflows if w.family.endswith("login-user.html"))
    assert [p.kind for p in login.parameters] == ["quoted", "quoted"] and len(login.provenance) == 2
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert all(f'data-workflow="{w.workflow_id}"' in report for w in workflows)  # listed as forged programs
    replayed = evaluate_miniwob(browser_session, lambda env: WorkflowPolicy(workflows, observe=env.observe), tasks,
                                episodes=2, seed=100, max_actions=8)
    assert [case["reward"] for case in replayed.cases] == [1.0, 1.0, 1.0, 1.0], replayed.cases
    assert all(case["workflow"] and case["broken_step"] is None for case in replayed.cases)
    assert replayed.summary["workflow_broken"] == 0


def test_an_element_in_a_collapsed_folder_is_found_by_opening_folders_of_the_kind_that_revealed_it(browser_session):
    """MiniWoB's navigate-tree, seeds whose file sits in a closed folder: the folder names are of the instance, so
    replay opens the folders of the recorded kind (``li.expandable``) one by one until the file shows."""
    pytest.importorskip("miniwob")
    from scrapesmith.bench.miniwob import evaluate_miniwob
    from scrapesmith.insta.workflow.views import Locator, Parameter, Workflow, WorkflowStep

    target = WorkflowStep(action="click", locators=[Locator(kind="role", role="text", value="{p1}")],
                          reveal_kinds=["li.expandable"])
    workflow = Workflow(family="127.0.0.1/miniwob/navigate-tree.html", steps=[target],
                        start_url="http://127.0.0.1/miniwob/navigate-tree.html",
                        template='Navigate through the file tree. Find and click on the folder or file named "{p1}".',
                        parameters=[Parameter(name="p1", kind="quoted")])
    replayed = evaluate_miniwob(browser_session, lambda env: WorkflowPolicy([workflow], observe=env.observe),
                                ["navigate-tree"], episodes=2, seed=100, max_actions=8)
    assert [case["reward"] > 0 for case in replayed.cases] == [True, True], replayed.cases
    assert any("workflow:1:reveal" in case["paths"] for case in replayed.cases)  # a folder was opened first
