"""The workflow commands: compile writes a run's workflows and says what it left out; mistakes are one clear error."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from scrapesmith.cli import app
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import Action, Element, Judgement, SiteResult, Step, Trajectory


def _episode(name: str, judged: float) -> SiteResult:
    task = f'Click on the "{name}" button.'
    step = Step(url="http://127.0.0.1:1/miniwob/click-button.html", observation="", candidate=f'click "{name}"',
                action=Action(action_key="click", target_element_id=4),
                target=Element(id=4, tag="button", role="button", text=name), selectors={"css": "button"})
    trajectory = Trajectory(task=task, policy="candidates", start_url=step.url, steps=[step])
    return SiteResult(site=f"click-button {name}", url=step.url, status="ok", trajectory=trajectory,
                      judgement=Judgement(success=judged, efficiency=1, self_correction=0, kind="evidence"))


def test_insta_compile_writes_one_workflow_per_family_and_counts_what_it_left_out(tmp_path):
    store = ResultStore(tmp_path / "run")
    for name, judged in (("ok", 1.0), ("no", 1.0), ("yes", 0.0)):
        store.append(_episode(name, judged))
    result = CliRunner().invoke(app, ["insta", "compile", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "3 episodes: 2 compiled into 1 workflows; left out: 1 judged unsuccessful" in result.output
    [path] = (tmp_path / "run" / "workflows").glob("*.json")
    saved = json.loads(path.read_text())
    assert saved["template"] == 'Click on the "{p1}" button.' and saved["parameters"][0]["examples"] == ["ok", "no"]
    assert saved["id"] == path.stem and len(saved["provenance"]) == 2 and saved["readable"][0].startswith("1. click")


def test_workflow_command_mistakes_are_one_clear_error(tmp_path):
    runner = CliRunner(env={"COLUMNS": "200"})  # the error panel on one line
    missing = runner.invoke(app, ["bench", "miniwob", "--policy", "workflow"])
    assert missing.exit_code == 2 and "--workflows" in missing.output
    stray = runner.invoke(app, ["bench", "miniwob", "--fallback"])
    assert stray.exit_code == 2 and "--policy workflow" in stray.output
    (tmp_path / "not.json").write_text('{"a": 1}')
    wrong = runner.invoke(app, ["insta", "replay", str(tmp_path / "not.json"), "--task", "Click."])
    assert isinstance(wrong.exception, ScrapesmithError) and "not a workflow" in str(wrong.exception)
    empty = runner.invoke(app, ["insta", "replay", str(tmp_path / "not.json"), "--task", " "])
    assert empty.exit_code == 2
    nothing = runner.invoke(app, ["insta", "compile", str(tmp_path)])
    assert isinstance(nothing.exception, ScrapesmithError) and "no shards" in str(nothing.exception)


def test_insta_compile_reads_several_runs_rejudges_and_says_why_a_family_has_no_workflow(tmp_path):
    """Two sources of one task (say the no-model and the model agent); an episode its old judge left out is
    judged again by the program pass; a family with no verified episode is listed with the reason."""
    first, second = ResultStore(tmp_path / "a"), ResultStore(tmp_path / "b")
    first.append(_episode("ok", 1.0))
    second.append(_episode("no", 0.0))  # the program pass verifies it: clicked the quoted button, stopped
    other = _episode("Go", 0.0)
    other.url = other.trajectory.start_url = "http://127.0.0.1:1/miniwob/click-link.html"
    other.trajectory.stop_reason = "max_actions"  # never verified: the episode did not stop
    second.append(other)
    runner = CliRunner(env={"COLUMNS": "200"})
    plain = runner.invoke(app, ["insta", "compile", str(tmp_path / "a"), str(tmp_path / "b"), "--out",
                                str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    assert "3 episodes: 1 compiled into 1 workflows; left out: 2 judged unsuccessful" in plain.output
    assert "1 of 2 task families have no workflow" in plain.output
    assert "127.0.0.1/miniwob/click-link.html: 1 judged unsuccessful" in plain.output
    again = runner.invoke(app, ["insta", "compile", str(tmp_path / "a"), str(tmp_path / "b"), "--rejudge"])
    assert again.exit_code == 0, again.output
    assert "3 episodes: 2 compiled into 1 workflows; left out: 1 judged unsuccessful" in again.output
    [path] = (tmp_path / "a" / "workflows").glob("*.json")
    saved = json.loads(path.read_text())
    assert saved["parameters"][0]["examples"] == ["ok", "no"]
    # each episode names its own run: which agent's episodes a workflow came from
    assert [p["run"] for p in saved["provenance"]] == [str(tmp_path / "a"), str(tmp_path / "b")]
