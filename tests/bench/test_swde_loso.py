"""``bench swde --loso`` end to end on three real SWDE sites: every site is scored with a ranker fitted on the
other two only, the in-sample figure beside it; the training rows are kept and reused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scrapesmith.bench.confidence import ROWS as CONFIDENCE_ROWS
from scrapesmith.bench.confidence import fitted_without
from scrapesmith.bench.confidence import load_rows as load_judged
from scrapesmith.bench.swde_ranker import CandidateRow, field_choices, fit_ranker, inner_folds, load_rows
from scrapesmith.cli import app

SWDE = (Path(__file__).resolve().parents[2] / "../shared/data/swde").resolve()
BOOKS = ["book-amazon", "book-booksamillion", "book-borders"]


@pytest.fixture
def three_sites(tmp_path: Path) -> Path:
    pages = tmp_path / "swde"
    (pages / "book").mkdir(parents=True)
    for site in BOOKS:
        (pages / "book" / site).symlink_to(SWDE / "book" / site)
    (pages / "groundtruth").symlink_to(SWDE / "groundtruth")
    return pages


def test_loso_scores_each_site_with_a_model_fitted_without_it(three_sites: Path, tmp_path: Path):
    out, rows = tmp_path / "loso.json", tmp_path / "rows.jsonl.gz"
    args = ["bench", "swde", "--loso", "--pages", str(three_sites), "--attributes", "title,isbn_13",
            "--seeds", "3", "--test", "2", "--rows", str(rows), "--json", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    summary, params = data["summary"], data["params"]
    assert params["loso"] is True and set(params["folds"]) == set(BOOKS)
    assert params["confidence_rows"] == str(CONFIDENCE_ROWS)  # the field confidence is held out too
    assert all(0.0 < fold["confidence_threshold"] < 1.0 for fold in params["folds"].values())
    assert summary["cases"] == 6 and 0.0 <= summary["correct_ratio"] <= 1.0
    assert "in_sample_correct_ratio" in summary and "wrong_flagged" in summary
    kept = load_rows(rows)  # every site's candidates were described and kept for the next run
    assert {r.site for r in kept} == set(BOOKS) and all(0.0 <= r.f1 <= 1.0 for r in kept)
    again = CliRunner().invoke(app, args)  # the kept rows are read back, the figures the same
    assert again.exit_code == 0, again.output
    assert json.loads(out.read_text())["summary"]["correct_ratio"] == summary["correct_ratio"]


def test_a_fold_s_field_confidence_never_sees_the_scored_site():
    """What ``--method read`` weighs a disagreement by is fitted without the site: turning every label of
    the site upside down leaves its fold's confidence as it was, and moves the one fitted on every site."""
    rows = load_judged(CONFIDENCE_ROWS)  # the rows the shipped model was fitted on
    site = "book-amazon"
    flipped = [r | {"category": "else" if r["category"] == "correct" else "correct"} if r["site"] == site else r
               for r in rows]
    assert fitted_without(flipped, site).data == fitted_without(rows, site).data
    assert fitted_without(flipped, None).data["weights"] != fitted_without(rows, None).data["weights"]


def test_loso_without_field_confidence_rows_stops_with_one_error_line(three_sites: Path, tmp_path: Path):
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "bench", "swde", "--loso", "--pages", str(three_sites),
                           "--test", "1", "--confidence-rows", str(tmp_path / "none.jsonl.gz")],
                          capture_output=True, text=True, timeout=120, check=False)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode != 0 and len(errors) == 1, done.stderr
    assert "no field-confidence rows at" in errors[0] and "bench swde-confidence" in errors[0]


def test_loso_scores_the_example_path_held_out_too(three_sites: Path, tmp_path: Path):
    """``--loso --examples 1``: each field learnt from its value on the first seed page, with a ranker and a
    confidence fitted without the site (the examples figure was in-sample only)."""
    out = tmp_path / "loso-examples.json"
    args = ["bench", "swde", "--loso", "--examples", "1", "--pages", str(three_sites), "--attributes",
            "title,isbn_13", "--seeds", "3", "--test", "2", "--rows", str(tmp_path / "rows.jsonl.gz"),
            "--json", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["params"]["examples"] == 1 and data["name"] == "swde LOSO (examples on 1 seed pages)"
    assert {spec["method"] for spec in data["params"]["specs"].values()} == {"examples"}
    assert data["summary"]["cases"] == 6 and data["summary"]["correct_ratio"] > 0.5


@pytest.mark.parametrize(("extra", "named"), [
    (["--loso", "--mutate", "classes"], "--mutate"),
    (["--loso", "--no-ranker"], "--no-ranker"),
    (["--mutate", "classes", "--examples", "1"], "--examples"),
    (["--mutate", "classes", "--strict"], "--strict"),
])
def test_an_option_the_run_would_ignore_is_a_usage_error(three_sites: Path, extra: list[str], named: str):
    result = CliRunner().invoke(app, ["bench", "swde", "--pages", str(three_sites), "--test", "1", *extra])
    assert result.exit_code == 2 and named in result.output, result.output


def row(site: str, field: str, rank: int, good: float, correct: bool) -> CandidateRow:
    return CandidateRow(site, field, rank, f"//x{rank}", True, {"good": good, "noise": (rank * 7 % 3) / 3},
                        1.0 if correct else 0.0)


def test_the_inner_folds_let_the_model_order_only_where_it_beats_the_hand_weights():
    # on every site the hand-weighted first (rank 0) is wrong and the candidate with "good" high is right
    rows = [row(site, field, rank, float(rank == 2), rank == 2) for site in "abcd" for field in "xy"
            for rank in range(4)]
    folds = inner_folds(rows)
    assert folds.orders and folds.learned_correct == 8 and folds.hand_correct == 0
    model = fit_ranker(rows, folds.threshold, folds.orders)
    assert all(choice.correct for choice in field_choices(rows, model).values())
    # and where the hand weights are right already, the model's order is not taken
    hand_right = [row(site, field, rank, float(rank == 2), rank == 0) for site in "abcd" for field in "xy"
                  for rank in range(4)]
    assert not inner_folds(hand_right).orders
