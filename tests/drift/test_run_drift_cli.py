"""`scrapesmith run` on real SWDE pages: quiet on the pages as they were, exit status 3 with the evidence on
the same pages after a layout change (classes obfuscated); a spec saved before profiles still runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.bench.swde import read_page
from scrapesmith.dom.mutate import mutate_page

SITE = Path(__file__).resolve().parents[2] / "../shared/data/swde/book/book-amazon"
pytestmark = pytest.mark.skipif(not SITE.is_dir(), reason="SWDE pages not present")


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def forged(tmp_path_factory):
    work = tmp_path_factory.mktemp("drift")
    pages = sorted(SITE.glob("*.htm"))
    for name in ("now", "changed"):
        (work / name).mkdir()
    for page in pages:
        text = read_page(page)
        (work / "now" / page.name).write_text(text, encoding="utf-8")
        (work / "changed" / page.name).write_text(mutate_page(text, "classes", 0), encoding="utf-8")
    done = scrapesmith("induce", *(str(work / "now" / p.name) for p in pages[:3]), "-f", "title",
                       "-f", "isbn_13=the isbn number of the book", "--method", "heuristic", "-o", "spec.json",
                       cwd=work)
    assert done.returncode == 0, done.stderr
    return work, [p.name for p in pages[3:]]


def test_unchanged_pages_run_without_alarm(forged):
    work, tests = forged
    done = scrapesmith("run", "spec.json", *(f"now/{n}" for n in tests), "-o", "now.csv", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no drift" in done.stderr
    record = json.loads((work / "now.run.json").read_text())
    assert record["drift"]["checked"] and record["drift"]["drifts"] == []


def test_changed_pages_exit_3_with_evidence_in_output_and_record(forged):
    work, tests = forged
    done = scrapesmith("run", "spec.json", *(f"changed/{n}" for n in tests), "-o", "changed.csv", cwd=work)
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"title: 0 of {len(tests)} filled, was 3 of 3" in done.stderr
    record = json.loads((work / "changed.run.json").read_text())
    assert "title" in [d["column"] for d in record["drift"]["drifts"]]


def test_spec_saved_before_profiles_still_runs_unchecked(forged):
    work, tests = forged
    old = json.loads((work / "spec.json").read_text())
    del old["profile"]
    (work / "old.json").write_text(json.dumps(old), encoding="utf-8")
    done = scrapesmith("run", "old.json", *(f"changed/{n}" for n in tests), "-o", "old.csv", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "drift not checked" in done.stderr
