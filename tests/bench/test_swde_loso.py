"""``bench swde --loso`` end to end on three real SWDE sites: every site is scored with a ranker fitted on the
other two only, the in-sample figure beside it; the training rows are kept and reused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

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
    assert summary["cases"] == 6 and 0.0 <= summary["correct_ratio"] <= 1.0
    assert "in_sample_correct_ratio" in summary and "wrong_flagged" in summary
    kept = load_rows(rows)  # every site's candidates were described and kept for the next run
    assert {r.site for r in kept} == set(BOOKS) and all(0.0 <= r.f1 <= 1.0 for r in kept)
    again = CliRunner().invoke(app, args)  # the kept rows are read back, the figures the same
    assert again.exit_code == 0, again.output
    assert json.loads(out.read_text())["summary"]["correct_ratio"] == summary["correct_ratio"]


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
