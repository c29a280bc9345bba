"""A field's confidence from generic signals of the chosen candidate among its rivals (``induce/confidence.py``).

Real pages (SWDE development sites in ../shared/data/swde): the signals are read off the engine's own ranking;
the model that turns them into a confidence is a logistic regression fitted across sites
(``scrapesmith bench swde-confidence``), and the bench's leave-one-site-out never lets a site's own rows
choose its flags.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from scrapesmith.bench.confidence import fit, loso
from scrapesmith.induce import FieldRequest, induce_scraper, parse_for_replay, use_ranker
from scrapesmith.induce.confidence import (
    CHECK_ONLY,
    MODEL_PATH,
    ConfidenceModel,
    assess,
    field_values,
    shipped_model,
    signals,
    use_confidence,
)
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import rank_candidates, trusted

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
COLLEGEBOARD = SWDE / "university/university-collegeboard"
USNEWS = SWDE / "university/university-usnews"
REPOSITORY = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not COLLEGEBOARD.is_dir(), reason="SWDE data not present")


def seeds(folder: Path, count: int = 3) -> list:
    return [parse_for_replay(p.read_bytes().decode("utf-8", "replace")) for p in sorted(folder.glob("*.htm"))[:count]]


def ranked_for(folder: Path, name: str, instruction: str):
    concept = concept_for(name, instruction)
    trees = seeds(folder)
    return [s for s in rank_candidates(concept, trees) if trusted(s, len(trees))], concept


def brand_first():
    """collegeboard's name candidates with the brand heading ("CollegeBoard.com" on every page) put first: what
    the hand weights chose before the generators learnt otherwise, a choice the confidence must doubt."""
    with use_ranker(None):
        ranked, concept = ranked_for(COLLEGEBOARD, "name", "Please extract the name of the university.")
    brand = next(s for s in ranked if field_values(s, concept) == (("CollegeBoard.com",),) * 3)
    return [brand, *(s for s in ranked if s is not brand)], concept


def test_the_brand_heading_reads_as_the_same_text_on_every_seed_and_a_phone_as_varying():
    brand, concept = brand_first()
    found = signals(brand, concept)
    assert found["same on every seed"] == 1.0 and found["filled"] == 1.0
    phone, concept = ranked_for(USNEWS, "phone", "the contact phone number of the university")
    found = signals(phone, concept)
    assert found["same on every seed"] == 0.0 and found["filled"] == 1.0
    assert found["margin"] > 0  # the chosen reading scores above every rival that reads other values


def test_the_reason_is_the_signal_that_pulled_the_confidence_down_and_a_seed_check_comes_first():
    phone, concept = ranked_for(USNEWS, "phone", "the contact phone number of the university")
    found = signals(phone, concept)
    names = sorted(found)
    base = {"kind": "linear", "features": names, "mean": [0.0] * len(names), "scale": [1.0] * len(names),
            "bias": 0.0, "threshold": 0.99}
    weights = [(-3.0 if n == "margin" else 0.0) for n in names]  # a wide margin made to count against it
    with use_confidence(ConfidenceModel({**base, "weights": weights})):
        confidence, doubt = assess(phone, concept)
    rival = any(field_values(s, concept) != field_values(phone[0], concept) for s in phone[1:])
    assert confidence < 0.5
    assert doubt.startswith("another reading scores nearly as high") if rival else (
        doubt == "no rival reading to weigh it against")
    with use_confidence(ConfidenceModel({**base, "weights": [0.0] * len(names), "bias": 5.0})):
        assert assess(phone, concept) == (pytest.approx(0.993, abs=1e-3), None)  # above the threshold: no doubt
    brand, concept = brand_first()
    with use_confidence(ConfidenceModel({**base, "weights": weights})):
        assert assess(brand, concept)[1] == "same text on every seed page"


def test_the_shipped_model_trusts_the_brand_less_than_a_varying_heading_and_trusts_a_labelled_phone():
    """In-sample (both sites were among those it was fitted on); the held-out figures are in BENCHMARKS.md."""
    model = shipped_model()
    assert model is not None and 0 < model.threshold < 1
    brand, concept = brand_first()
    confidence, doubt = assess(brand, concept)
    heading = next(s for s in brand if len(set(field_values(s, concept))) == 3)  # a name that varies by page
    assert confidence < assess([heading, *(s for s in brand if s is not heading)], concept)[0]
    assert doubt is None or doubt == "same text on every seed page"
    phone = induce_scraper([FieldRequest("phone", "the contact phone number of the university")], seeds(USNEWS),
                           method="heuristic").field("phone")
    assert phone.doubt is None and phone.confidence >= model.threshold


def test_the_shipped_model_names_its_training_rows_and_reads_only_signals_the_engine_gives():
    model = json.loads(MODEL_PATH.read_text())
    rows_file = REPOSITORY / model["trained"]["data"]
    assert rows_file.is_file()
    with gzip.open(rows_file, "rt") as handle:
        first = json.loads(handle.readline())
    assert set(model["features"]) == set(first["signals"]) - set(CHECK_ONLY)  # facts weighed as checks only
    phone, concept = ranked_for(USNEWS, "phone", "the contact phone number of the university")
    assert set(model["features"]) == set(signals(phone, concept)) - set(CHECK_ONLY)


def test_leave_one_site_out_flags_a_site_by_what_the_other_sites_taught():
    """Two sites where a high ``x`` goes with right values, one where it goes with wrong ones: held out, that
    site is judged by the others' lesson (its right values flagged); in-sample the fit could have learnt it."""
    rows = []
    for site, sign in (("a", 1), ("b", 1), ("c", -1)):
        for i in range(20):
            right = i % 2 == 0
            rows.append({"site": site, "window": 0, "field": f"f{i}", "extracted": True,
                         "category": "correct" if right else "unex",
                         "signals": {"x": float(sign * (1 if right else -1)) + 0.01 * i}})
    probabilities, flagged, _ = loso(rows)
    held = [(r["category"], f) for r, f in zip(rows, flagged, strict=True) if r["site"] == "c"]
    assert all(f for category, f in held if category == "correct")
    assert not any(f for category, f in held if category != "correct")
    model = fit([r for r in rows if r["site"] != "c"])
    assert [model.probability(r["signals"]) for r in rows if r["site"] == "c"] == pytest.approx(
        [p for r, p in zip(rows, probabilities, strict=True) if r["site"] == "c"])
