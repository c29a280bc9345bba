"""Heal a scraper spec forged on real SWDE pages after each layout mutation: the healed version reads SWDE's
truth on the changed test pages as well as the forged spec read it on the unchanged ones; the old version is
kept and still runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from swde_truth import swde_truth, truth_f1

from scrapesmith.bench.swde import read_page
from scrapesmith.dom.mutate import MUTATIONS, mutate_page
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.heal import heal_spec, next_version_path
from scrapesmith.induce.profile import with_profile
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.views import FieldRequest, ScraperSpec

SITE = Path(__file__).resolve().parents[2] / "../shared/data/swde/book/book-amazon"
pytestmark = pytest.mark.skipif(not SITE.is_dir(), reason="SWDE pages not present")
FIELDS = [FieldRequest("title", "the title of the book"), FieldRequest("isbn_13", "the isbn number of the book"),
          FieldRequest("publisher", "the publisher of the book")]


@pytest.fixture(scope="module")
def forged():
    texts = [read_page(p) for p in sorted(SITE.glob("*.htm"))]
    seeds = [parse_for_replay(t) for t in texts[:3]]
    spec = with_profile(induce_scraper(FIELDS, seeds, method="heuristic"), seeds)
    return spec, texts


@pytest.fixture(scope="module")
def truth():
    """SWDE's truth for the test pages (every page after the three seeds)."""
    return swde_truth("book-amazon", [p.stem for p in sorted(SITE.glob("*.htm"))][3:], [f.name for f in FIELDS])


def _rows(spec: ScraperSpec, texts: list[str]) -> list[dict]:
    compiled = CompiledSpec(spec)
    return [compiled.row(t) for t in texts]


def _truth_scores(rows: list[dict], truth: list[dict]) -> dict[str, float]:
    return {f.name: truth_f1(rows, truth, f.name) for f in FIELDS}  # the publisher line as printed, as SWDE keeps it


def test_the_forged_spec_reads_the_truth_on_the_unchanged_site(forged, truth):
    spec, texts = forged
    assert _truth_scores(_rows(spec, texts[3:]), truth) == {"title": 1.0, "isbn_13": 1.0, "publisher": 1.0}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_heal_restores_the_truth_read_before_each_mutation(forged, truth, mutation):
    spec, texts = forged
    changed = [mutate_page(t, mutation, seed=1) for t in texts]
    result = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])
    assert result.lost == []
    before = _truth_scores(_rows(spec, texts[3:]), truth)
    after = _truth_scores(_rows(result.spec, changed[3:]), truth)
    assert all(after[name] >= before[name] for name in before), (before, after)
    assert result.validation is not None and not result.validation.drifted
    if result.healed:
        assert result.spec.healed_from == spec.spec_id and result.spec.spec_id != spec.spec_id


def test_an_unchanged_site_needs_no_heal(forged):
    spec, texts = forged
    result = heal_spec(spec, [parse_for_replay(t) for t in texts[:3]])
    assert result.healed == [] and result.lost == [] and result.spec.fields == spec.fields


def test_versions_never_overwrite(tmp_path):
    (tmp_path / "spec.json").write_text("{}")
    assert next_version_path(tmp_path / "spec.json").name == "spec.v2.json"
    (tmp_path / "spec.v2.json").write_text("{}")
    assert next_version_path(tmp_path / "spec.json").name == "spec.v3.json"
    assert next_version_path(tmp_path / "spec.v2.json").name == "spec.v3.json"


def test_heal_command_writes_a_new_version_and_the_old_still_runs(forged, truth, tmp_path):
    spec, texts = forged
    for index, text in enumerate(texts):
        (tmp_path / f"{index}.htm").write_text(mutate_page(text, "combined", seed=2), encoding="utf-8")
    spec.model_copy(update={"seeds": ["0.htm", "1.htm", "2.htm"]}).save(tmp_path / "spec.json")
    before = (tmp_path / "spec.json").read_text()
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}

    def scrapesmith(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120, check=False)

    healed = scrapesmith("heal", "spec.json")
    assert healed.returncode == 0, healed.stderr
    assert "- " in healed.stderr and "+ " in healed.stderr and "spec.v2.json" in healed.stderr
    assert (tmp_path / "spec.json").read_text() == before
    new = ScraperSpec.load(tmp_path / "spec.v2.json")
    assert new.healed_from == spec.spec_id
    pages = [f"{i}.htm" for i in range(3, len(texts))]
    assert scrapesmith("run", "spec.v2.json", *pages, "-o", "new.jsonl").returncode == 0
    rows = [json.loads(line) for line in (tmp_path / "new.jsonl").read_text().splitlines()]
    assert _truth_scores(rows, truth) == _truth_scores(_rows(spec, texts[3:]), truth)
    old = scrapesmith("run", "spec.json", *pages, "-o", "old.csv")
    assert old.returncode == 3 and json.loads((tmp_path / "old.run.json").read_text())["drift"]["drifts"]


def test_run_heal_mends_and_reruns_on_drift(forged, truth, tmp_path):
    spec, texts = forged
    for index, text in enumerate(texts):
        (tmp_path / f"{index}.htm").write_text(mutate_page(text, "labels", seed=3), encoding="utf-8")
    spec.model_copy(update={"seeds": ["0.htm", "1.htm", "2.htm"]}).save(tmp_path / "spec.json")
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    pages = [f"{i}.htm" for i in range(3, len(texts))]
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "run", "spec.json", *pages, "-o", "out.jsonl",
                           "--heal"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "drift" in done.stderr and "spec.v2.json" in done.stderr and "no drift" in done.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert _truth_scores(rows, truth) == _truth_scores(_rows(spec, texts[3:]), truth)
    assert json.loads((tmp_path / "out.run.json").read_text())["program"].endswith("spec.v2.json")
