"""SFT export: chat records per kind, filtering by the judge, and PII scrubbing with scrubadub."""

from __future__ import annotations

import json

import pytest

from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.export import ExportConfig, export_run
from scrapesmith.insta.store import ResultStore
from scrapesmith.insta.views import Action, Judgement, ProposedTask, RefinedTask, SiteResult, Step, Trajectory

pytest.importorskip("scrubadub")

EMAIL, PHONE = "jane.roe@corpmail.io", "+1 415 555 2671"


def _result(site: str, success: float) -> SiteResult:
    steps = [
        Step(url=f"http://{site}/", observation=f"# Contact\n\nWrite to {EMAIL} or call {PHONE}\n[id: 3] About",
             response='Open about.\n```json\n{"action_key": "click", "action_kwargs": {}, "target_element_id": 3}\n```',
             action=Action(action_key="click", target_element_id=3)),
        Step(url=f"http://{site}/about", observation="[id: 1] x", response="garbage", error="invalid action: no"),
        Step(url=f"http://{site}/about", observation="About us",
             response='```json\n{"action_key": "stop", "action_kwargs": {"answer": "done"}}\n```',
             action=Action(action_key="stop", action_kwargs={"answer": "done"})),
    ]
    return SiteResult(
        site=site, url=f"http://{site}/", status="ok",
        proposal=ProposedTask(domain=site, task="Find the about page.", response="Find the about page.",
                              prompt=f"'{site}'", examples=["arxiv.org", "nasa.gov"]),
        trajectory=Trajectory(task="Find the about page.", start_url=f"http://{site}/", steps=steps,
                              final_url=f"http://{site}/about", final_observation="About us"),
        judgement=Judgement(success=success, efficiency=0.8, self_correction=0.2, response="ok ```json{}```"),
        refined=RefinedTask(proposed_task="Who founded it?", steps=["open about"], criteria="names the founder",
                            response="```json\n{}\n```"),
    )


@pytest.fixture
def run_dir(tmp_path):
    store = ResultStore(tmp_path / "run")
    store.append(_result("good.test", 1.0))
    store.append(_result("bad.test", 0.2))
    store.append(SiteResult(site="unsafe.test", url="http://unsafe.test/", status="unsafe",
                            proposal=ProposedTask(domain="unsafe.test", task=None, response="N/A")))
    return tmp_path / "run"


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_export_scrubs_pii_from_every_message(run_dir, tmp_path):
    out = tmp_path / "sft.jsonl"
    counts = export_run(run_dir, out, ExportConfig(min_success=1.0)).counts
    text = out.read_text()
    assert EMAIL not in text and "555 2671" not in text and "{{EMAIL}}" in text and "{{PHONE}}" in text
    assert "http://good.test/about" in text
    assert counts == {"agent": 2, "judge": 2, "proposer": 4}


def test_export_keeps_only_valid_steps_of_successful_trajectories(run_dir, tmp_path):
    out = tmp_path / "sft.jsonl"
    export_run(run_dir, out, ExportConfig(min_success=1.0, kinds=("agent",), scrub_pii=False))
    records = _read(out)
    assert {record["site"] for record in records} == {"good.test"} and [r["step"] for r in records] == [0, 2]
    first = records[0]["messages"]
    assert [m["role"] for m in first] == ["system", "user", "assistant"]
    assert EMAIL in first[1]["content"] and first[2]["content"].startswith("Open about.")
    assert "invalid action" in records[1]["messages"][1]["content"]


def test_export_judge_records_filter_by_confidence_and_proposer_has_both_phases(run_dir, tmp_path):
    out = tmp_path / "sft.jsonl"
    export_run(run_dir, out, ExportConfig(min_success=0.0, min_confidence=0.9, kinds=("judge", "proposer"),
                                          scrub_pii=False))
    records = _read(out)
    judge = [r for r in records if r["kind"] == "judge"]
    assert [r["site"] for r in judge] == ["good.test"]
    phases = sorted((r["site"], r["phase"]) for r in records if r["kind"] == "proposer")
    assert phases == [("bad.test", 1), ("bad.test", 2), ("good.test", 1), ("good.test", 2), ("unsafe.test", 1)]
    good = next(r for r in records if r["site"] == "good.test" and r.get("phase") == 1)
    assert "'arxiv.org'" in good["messages"][0]["content"] and "'nasa.gov'" in good["messages"][0]["content"]


def test_export_of_an_empty_directory_is_a_clear_error(tmp_path):
    with pytest.raises(ScrapesmithError, match="no pipeline results"):
        export_run(tmp_path, tmp_path / "o.jsonl", ExportConfig())


@pytest.mark.parametrize("tear", [b'{"site": "torn.test", "status": "o', "caf\u00e9".encode()[:-1], b"\xff\xfe\x00"])
def test_export_skips_torn_lines_whatever_the_byte_and_counts_them(run_dir, tmp_path, tear):
    config = ExportConfig(min_success=0.0, scrub_pii=False)
    before = export_run(run_dir, tmp_path / "before.jsonl", config).counts
    shard = ResultStore(run_dir).shards()[-1]
    with shard.open("ab") as handle:  # a crash mid-write: the line ends anywhere, even inside a character
        handle.write(b'{"site": "x", "note": "' + tear)
    result = export_run(run_dir, tmp_path / "sft.jsonl", config)
    assert result.torn_lines == 1
    assert result.counts == before  # nothing already written is lost
