"""``bench swde --mutate`` with a model: calls and tokens counted per mutation kind and per site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.progress import Progress

from scrapesmith.bench.swde_mutated import run_mutated
from scrapesmith.llm import LedgeredLLM
from scrapesmith.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.usefixtures("chooser_paths_open")  # the control flow with the model asked

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_mutated_choose_run_counts_model_calls_and_tokens_per_kind_and_site(tmp_path):
    # a scripted model (control flow only): it rejects every option, so only the counting is under test
    llm = ScriptedLLM(lambda request: json.dumps({"answer": "none"}))
    result = run_mutated(SWDE, SWDE / "groundtruth", "university-usnews", "type,phone", 3, 1, "choose",
                         LedgeredLLM(llm), ["labels"], [0], tmp_path / "out.json", lambda: Progress(disable=True))
    assert llm.calls > 0
    summary, params = result.summary, result.params
    assert summary["none_llm_calls"] + summary["labels_llm_calls"] == llm.calls
    assert summary["none_tokens"] > 0
    per_site = {row["group"]: row for row in params["per_kind_site"]}
    assert set(per_site) == {f"{k} {s}" for k in ("none", "labels") for s in ("university-usnews",)}
    assert sum(row["llm_calls"] for row in per_site.values()) == llm.calls
    assert sum(c["llm_calls"] for c in params["calls_per_draw"]) == llm.calls
    written = json.loads((tmp_path / "out.json").read_text())
    assert written["summary"]["labels_llm_calls"] == summary["labels_llm_calls"]
    assert "model rejected" in written["params"]["specs"]["labels 0 university-usnews"]["fields"][0]["evidence"]
