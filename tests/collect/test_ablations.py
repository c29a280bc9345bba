"""The OHCache ablations (A3-A5) run the same collection; the ledger shows what each costs in tokens."""

from __future__ import annotations

import csv
import json
import re

import pytest

from scrapesmith.collect.service import collect
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest


def decide(request: LLMRequest) -> str:
    """Always the same decisions, so only the communication differs between ablations: the blueprint takes
    the access path that fills both columns (the standings table), as the prompt lists it."""
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["read the standings table"], "columns": ["team", "wins"], "start_url": None})
    if request.stage == "collect.web":
        return json.dumps({"thought": "the standings are here", "action": "use_page", "choice": []})
    if request.stage == "collect.blueprint":
        paths = re.findall(r"^(\d+)\. .*; fills ([^;]*);", request.messages[-1].content, re.MULTILINE)
        choice = next(int(index) for index, fills in paths if fills == "team, wins")
        return json.dumps({"choice": choice, "field_map": {"team": "team", "wins": "wins"}})
    return json.dumps({"choice": 0})


@pytest.fixture(scope="module")
def runs(demo_web, tmp_path_factory):
    url = demo_web.url("/sports/season/2023/standings.html")
    results = {}
    for ablation in ("full", "broadcast", "no-cache"):
        results[ablation] = collect(f"Standings at {url} with columns team and wins", llm=ScriptedLLM(decide),
                                    run_dir=tmp_path_factory.mktemp(ablation), ablation=ablation, delay=0.0,
                                    allow_hosts=[f"{demo_web.host}:{demo_web.port}"], always_ask=True)
    return results


def test_every_ablation_still_collects_the_rows(runs, demo_web):
    truth = sorted((r["team"], str(r["wins"])) for r in demo_web.sites.truth("sports")["team_seasons"]
                   if r["year"] == 2023)
    assert len(truth) == 8
    for name, result in runs.items():
        with result.dataset.open(newline="", encoding="utf-8") as handle:
            rows = sorted((row["team"], row["wins"]) for row in csv.DictReader(handle))
        assert (name, result.rows, result.valid, rows) == (name, 8, True, truth)  # the site's standings, team by team


def test_inlining_artifacts_costs_more_input_tokens_than_cache_ids(runs):
    assert runs["no-cache"].input_tokens > runs["full"].input_tokens


def test_broadcast_without_ohcache_costs_the_most(runs):
    assert runs["broadcast"].input_tokens > runs["no-cache"].input_tokens > runs["full"].input_tokens
    edges = [json.loads(line) for line in (runs["broadcast"].run_dir / "messages.jsonl").read_text().splitlines()]
    assert all(len(edge["targets"]) == 7 for edge in edges)
    assert edges[1]["text"].startswith("Hello team")
