"""The chooser's gate on real SWDE pages redrawn in another template (``combined``, seed 0): the model may
move a field to another candidate, never empty one the evidence fills, and is not offered the field's own
label read as a value. A scripted model drives the control flow (it answers what the 1.5B model answered
in ``bench swde --method choose --mutate combined``, issue 28 round 8); no capability is claimed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapesmith.bench.swde import parse_for_replay, read_page
from scrapesmith.dom import mutate_page
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper
from scrapesmith.llm.scripted import ScriptedLLM

pytestmark = pytest.mark.usefixtures("chooser_paths_open")  # the control flow with the model asked

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


def redrawn_seeds(site: str) -> list:
    vertical = site.split("-")[0]
    paths = sorted((SWDE / vertical / site).glob("*.htm"))[:3]
    return [parse_for_replay(mutate_page(read_page(p), "combined", 0)) for p in paths]


def options_of(llm: ScriptedLLM) -> list[str]:
    return [o for r in llm.requests for o in r.json_schema["properties"]["answer"]["enum"]]


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_a_model_rejecting_every_option_keeps_the_evidence_choice() -> None:
    llm = ScriptedLLM(lambda request: json.dumps({"answer": "none"}))
    request = FieldRequest("price", "Please extract the sale price of the camera.")
    evidence = induce_scraper([request], redrawn_seeds("camera-amazon"), method="heuristic").field("price")
    chosen = induce_scraper([request], redrawn_seeds("camera-amazon"), method="choose", llm=llm).field("price")
    assert llm.calls == 1 and "rejected" in chosen.evidence
    assert chosen.actions == evidence.actions and evidence.actions


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_the_field_label_read_as_a_value_is_not_offered() -> None:
    def pick_the_label(request) -> str:  # copies an option holding the label on every page, if one is offered
        enum = request.json_schema["properties"]["answer"]["enum"]
        return json.dumps({"answer": next((o for o in enum if o.count("Genres") == 3), "none")})

    llm = ScriptedLLM(pick_the_label)
    request = FieldRequest("genre", "Please extract the genre of the movie.")
    seeds = redrawn_seeds("movie-imdb")
    spec = induce_scraper([request], seeds, method="choose", llm=llm)
    assert not any(o.count("Genres") == 3 for o in options_of(llm))
    read = [CompiledSpec(spec).extract_tree(tree)["genre"].values for tree in seeds]
    assert all(read) and not any("Genres" in values for values in read)
