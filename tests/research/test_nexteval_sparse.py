"""Fewer fitted constants for record detection (issue 34): each form fitted on real NEXT-EVAL pages holds
what it promises (k features, signs, one shared weight) and is scored only on pages it never saw."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.nexteval_sparse import (
    INTERPRETABLE,
    Choice,
    candidate_rows,
    estimate,
    forward_selection,
    l1_fitter,
    l1_selection,
    nested_sparse_fitter,
    signed_fitter,
    sparse_fitter,
    training_signs,
)
from scrapesmith.bench.nexteval_fit import FittedModels, PageData, load_pages, page_scores
from scrapesmith.dom import FEATURES

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


@pytest.fixture(scope="module")
def pages() -> list[PageData]:
    return load_pages(DATA / "html", DATA / "groundtruth", limit=6)


def test_a_sparse_model_weighs_k_features_and_the_shorter_path_starts_the_longer(pages: list[PageData]) -> None:
    features, labels = candidate_rows(pages)
    five = forward_selection(features, labels, 5)
    assert len(set(five)) == 5 and forward_selection(features, labels, 3) == five[:3]
    models = sparse_fitter(3, 2)(pages)
    assert sum(1 for weight in models.evidence.weights if weight) == 3
    assert sum(1 for weight in models.secondary.weights if weight) <= 2
    assert all(0.0 <= score <= 1.0 for score in page_scores(pages, models))


def test_the_l1_path_takes_k_distinct_features_and_the_refit_weighs_only_them(pages: list[PageData]) -> None:
    features, labels = candidate_rows(pages)
    taken = l1_selection(features, labels, 4)
    assert len(set(taken)) == 4
    weights = l1_fitter(4)(pages).evidence.weights
    assert {i for i, weight in enumerate(weights) if weight} == set(taken)


def test_signed_weights_keep_their_features_signs_and_equal_ones_share_one_size(pages: list[PageData]) -> None:
    features, labels = candidate_rows(pages)
    index = [FEATURES.index(name) for name in INTERPRETABLE]
    signs = training_signs(features, labels, index)
    for equal in (False, True):
        weights = np.asarray(signed_fitter(equal=equal)(pages).evidence.weights)
        assert not np.any(np.delete(weights, index))  # only the interpretable handful weighs
        assert np.all(weights[index] * signs >= 0)
        if equal:
            assert len({round(abs(weight), 9) for weight in weights[index]}) == 1


def test_every_held_out_figure_comes_from_fits_that_never_saw_the_page(pages: list[PageData]) -> None:
    seen: list[set[int]] = []
    fitter = sparse_fitter(3)

    def recording(train: list[PageData]) -> FittedModels:
        seen.append({id(page) for page in train})
        return fitter(train)

    result = estimate(pages, recording, group_size=2)
    assert len(result.in_sample) == 6 and [len(scores) for _, scores in result.halves] == [3, 3, 3, 3]
    assert len(seen) == 1 + 4 + 3 and seen[0] == {id(page) for page in pages}
    for (_, scores), train in zip(result.halves, seen[1:5], strict=True):
        assert len(train) == 3 and len(scores) == 3
    for group, train in enumerate(seen[5:]):
        assert train.isdisjoint(id(page) for page in pages[2 * group : 2 * group + 2])
    assert result.as_dict()["gap_leave_group_out"] == pytest.approx(result.in_sample_f1 - result.leave_group_out)


def test_the_nested_size_is_chosen_on_the_training_pages_and_recorded(pages: list[PageData]) -> None:
    choice = Choice([])
    models = nested_sparse_fitter((3, None), record=choice)(pages)
    assert choice.picks in (["3"], ["all"])
    weighed = sum(1 for weight in models.evidence.weights if weight)
    assert weighed == (3 if choice.picks == ["3"] else len(FEATURES))
