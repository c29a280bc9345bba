"""One real collection with the embedded model: every agent that asks a model asks the real one
(``always_ask``: with a named start page and one table, the default would need no model at all).

A smoke test (the workflow runs end to end against a real model and yields a replayable program); the
capability figures live in BENCHMARKS.md, measured by `scrapesmith bench instruct2ds`.
"""

from __future__ import annotations

import csv

import pytest

from scrapesmith.collect.service import collect
from scrapesmith.config import Settings
from scrapesmith.llm import resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(900)]


def test_embedded_model_collects_the_standings_table(demo_web, allow, tmp_path, monkeypatch):
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    monkeypatch.delenv("SCRAPESMITH_LLM", raising=False)
    llm = resolve_llm("local", cache=False)
    url = demo_web.url("/sports/season/2022/standings.html")
    result = collect(f"Collect the 2022 standings from {url} with columns team, wins and losses", llm=llm,
                     run_dir=tmp_path, allow_hosts=allow, delay=0.0, always_ask=True)
    assert result.llm_calls >= 3 and result.tokens > 0
    assert result.rows == 8 and result.valid
    truth = sorted((r["team"], str(r["wins"]), str(r["losses"])) for r in demo_web.sites.truth("sports")["team_seasons"]
                   if r["year"] == 2022)
    with result.dataset.open(newline="", encoding="utf-8") as handle:
        got = sorted((row["team"], row["wins"], row["losses"]) for row in csv.DictReader(handle))
    assert got == truth  # the site's own 2022 standings, team by team
    assert (tmp_path / "program.py").is_file() and (tmp_path / "ledger.json").is_file()
