"""`bench drift` on one real SWDE site and two NEXT-EVAL pages: the command runs, writes its JSON, and its
figures add up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.dom.mutate import MUTATIONS, mutate_page

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


def test_mutations_are_the_same_on_every_page_and_keep_the_text():
    page = ("<html><body><div class='box' id='main'><table><tr><td>Price:</td><td class='v'>$5.00</td></tr>"
            "<tr><td>Year:</td><td>2010</td></tr></table></div></body></html>")
    for name in MUTATIONS:
        changed = mutate_page(page, name, seed=4)
        assert changed == mutate_page(page, name, seed=4)
        assert "$5.00" in changed and "2010" in changed
    assert "class='box'" not in mutate_page(page, "classes", 4).replace('"', "'")
    assert "Price:" not in mutate_page(page, "labels", 4)


@pytest.mark.skipif(not (SWDE / "job").is_dir(), reason="SWDE pages not present")
def test_bench_drift_command_on_one_site(tmp_path):
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "bench", "drift", "--pages", str(SWDE), "--sites",
                           "job-dice", "--mutations", "classes,labels", "--mutation-seeds", "0", "--lists", "2", "--windows",
                           "2", "--json", "d.json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "d.json").read_text())
    summary, cases = result["summary"], result["cases"]
    assert summary["programs"] == len(cases) == 2 and summary["model_calls"] == 0
    assert summary["unchanged_runs"] == 2  # seeds 0-2 and 3-5
    assert summary["false_alarms_unchanged"] == sum(bool(u["evidence"]) for u in result["params"]["unchanged"])
    assert summary["drifted"] == sum(c["drifted"] for c in cases)
    assert all(c["f1_after_heal"] >= 0.95 for c in cases if c["healed"])
    lists = result["params"]["lists"]
    assert summary["list_pages"] == 2 and summary["list_unchanged_runs"] + len(lists["unrecorded"]) == 2
    assert summary["list_false_alarms_unchanged"] == 0 and summary["list_model_calls"] == 0
    assert summary["list_programs"] == sum(c["mutation"] != "none" for c in lists["cases"])


def test_bench_drift_refuses_an_unknown_mutation(tmp_path):
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "bench", "drift", "--mutations", "shuffle"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--mutations" in done.stderr
