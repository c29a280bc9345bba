"""Abstain rather than be confidently wrong: every field carries a confidence and, when unsure, a reason.

Real pages: university-collegeboard prints its brand ("CollegeBoard.com") as the heading of every page, so a
university's name found there is the same on every seed page — the template's, not the record's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest, ScraperSpec, induce_scraper, parse_for_replay
from scrapesmith.induce.ranking import judged

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
COLLEGEBOARD = SWDE / "university/university-collegeboard"
USNEWS = SWDE / "university/university-usnews"

pytestmark = pytest.mark.skipif(not COLLEGEBOARD.is_dir(), reason="SWDE data not present")


def seeds(folder: Path, count: int = 3) -> list:
    return [parse_for_replay(p.read_bytes().decode("utf-8", "replace")) for p in sorted(folder.glob("*.htm"))[:count]]


def test_text_the_same_on_every_seed_page_is_flagged_and_strict_leaves_it_empty():
    request = FieldRequest("name", "Please extract the name of the university.")
    spec = induce_scraper([request], seeds(COLLEGEBOARD), method="heuristic")
    field = spec.field("name")
    compiled = CompiledSpec(spec)
    names = {str(compiled.row_from(compiled.extract_tree(tree))["name"]) for tree in seeds(COLLEGEBOARD)}
    assert names == {"CollegeBoard.com"}  # the brand, the same on every seed: what the engine finds today
    assert field.doubt == "same text on every seed page"
    strict = spec.strict().field("name")
    assert strict.actions == [] and strict.doubt == field.doubt
    assert strict.evidence.startswith("left empty (--strict): same text on every seed page")


def test_a_value_that_varies_across_the_seeds_is_not_flagged_for_it():
    request = FieldRequest("phone", "Please extract the contact phone number of the university.")
    field = induce_scraper([request], seeds(USNEWS), method="heuristic").field("phone")
    assert field.actions and field.doubt != "same text on every seed page"


def test_a_class_value_may_be_the_same_on_every_record():
    """"Type: Private" on every seed page is data: a class kind asks for a value many records share."""
    from scrapesmith.induce.candidates import FieldCandidate
    from scrapesmith.induce.field_evidence import concept_for
    from scrapesmith.induce.heuristic import ScoredCandidate

    same = [["Private"], ["Private"], ["Private"]]
    scored = ScoredCandidate(FieldCandidate("//td[@class='type']", "label"), same, 0.9)
    assert judged(scored, concept_for("type", "the type of the university"))[1] is None
    assert judged(scored, concept_for("name", "the name of the university"))[1] == "same text on every seed page"
    missing = ScoredCandidate(FieldCandidate("//td[@class='type']", "label"), [["A"], [], ["B"]], 0.9)
    assert judged(missing, concept_for("name", "the name"))[1] == "found on 2 of 3 seed pages"


def test_confidence_and_doubt_are_kept_in_the_spec_file_but_not_in_its_id(tmp_path):
    html = "<html><body><h1>Acme</h1><p>Phone: (512) 471-3434</p></body></html>"
    spec = induce_scraper([FieldRequest("phone", "the phone number")], [parse_html(html)], method="heuristic")
    doubted = spec.model_copy(update={"fields": [spec.fields[0].model_copy(update={"confidence": 0.2,
                                                                                      "doubt": "a reason"})]})
    doubted.save(tmp_path / "spec.json")
    loaded = ScraperSpec.load(tmp_path / "spec.json")
    assert loaded.field("phone").confidence == 0.2 and loaded.field("phone").doubt == "a reason"
    assert loaded.spec_id == spec.spec_id


def test_a_run_record_and_its_report_list_the_unsure_fields(tmp_path):
    import json

    from scrapesmith.induce.service import save_spec_run

    html = "<html><body><h1>Acme</h1><p>Phone: (512) 471-3434</p></body></html>"
    spec = induce_scraper([FieldRequest("phone", "the phone number")], [parse_html(html)], method="heuristic")
    doubted = spec.model_copy(update={"fields": [spec.fields[0].model_copy(update={
        "confidence": 0.31, "doubt": "same text on every seed page"})]})
    doubted.save(tmp_path / "spec.json")
    rows = [{"phone": "(512) 471-3434", "source_url": "file:///a.html", "fetched_at": None,
             "program_id": doubted.spec_id, "error": None}]
    report = save_spec_run(doubted, tmp_path / "spec.json", rows, tmp_path / "out.csv", 0.1)
    record = json.loads((tmp_path / "out.run.json").read_text())
    assert record["unsure"] == [{"field": "phone", "confidence": 0.31, "doubt": "same text on every seed page",
                                 "left_empty": False}]
    note = "unsure: phone: same text on every seed page (confidence 0.31)"
    assert note in record["notes"] and note in report.read_text()
