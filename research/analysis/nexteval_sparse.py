"""Fewer fitted constants for record detection, every choice made inside the training pages.

Issue 34: the shipped detector weighs 29 features in its first model and 13 comparisons in its second,
all fitted on NEXT-EVAL pages 1–100, and scores 0.776 on pages kept aside against 0.84 in-sample. This
module builds the other forms those models can take, each as a :data:`Fitter` (training pages in, both
models out, in the form :func:`scrapesmith.bench.nexteval_fit.page_scores` reads), so that every one is
scored the same way on pages it never saw (:func:`estimate`):

* :func:`sparse_fitter` — forward selection: the ``k`` features whose logistic model fits the training
  candidates best, added one at a time (the second model likewise, at most ``k`` of its comparisons);
* :func:`l1_fitter` — the ``k`` features first to take a weight along the L1 path, refitted with L2;
* :func:`nested_sparse_fitter` — ``k`` itself chosen on the training pages' own two halves;
* :func:`signed_fitter` — a handful of interpretable features (:data:`INTERPRETABLE`), each weight held to
  the sign its feature has alone on the training pages; with ``equal=True`` every weight is the same
  (a fit-free ranking) and only a scale and an offset are fitted, so that the floor and the second model
  read a probability;
* :func:`bagged_fitter` — the first model averaged over fits that each leave one run of training pages out.

The features, the handful and the options for ``k`` were written before any of these was scored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from scrapesmith.bench.nexteval_fit import (
    DEFAULT_C,
    GROUP_SIZE,
    LOW_F1,
    FittedModels,
    FittedWeights,
    PageData,
    choose_c,
    fit_logistic,
    fit_models,
    half_splits,
    page_scores,
    secondary_rows,
)
from scrapesmith.dom import FEATURES, SECONDARY_FEATURES

SIZES = (3, 5, 8, 12)
INTERPRETABLE = (  # what a person reads off a list: how big, how wordy, how alike, links, numbers, where
    "relative_items",
    "log_chars_per_item",
    "relative_text_share",
    "similarity",
    "relative_structure",
    "link_share",
    "digit_share",
    "position",
    "in_chrome",
)
Fitter = Callable[[list[PageData]], FittedModels]


def log_loss(fitted: FittedWeights, features: np.ndarray, labels: np.ndarray) -> float:
    probabilities = np.clip(fitted.probabilities(features), 1e-9, 1 - 1e-9)
    return float(-np.mean(labels * np.log(probabilities) + (1 - labels) * np.log(1 - probabilities)))


PATHS: dict[tuple[str, float], list[int]] = {}  # the longest path found per rows: a shorter one is its start


def forward_selection(features: np.ndarray, labels: np.ndarray, k: int, c: float = DEFAULT_C) -> list[int]:
    """The columns of ``features``, up to ``k``, added one at a time, each the one whose model (with those
    already taken) has the lowest log-loss on these rows (greedy, so the path to ``k`` starts every longer
    one: paths are kept per rows and extended)."""
    key = (hashlib.sha1(features.tobytes() + labels.tobytes()).hexdigest(), c)
    chosen = list(PATHS.get(key, []))
    if len(chosen) >= k:
        return chosen[:k]
    while len(chosen) < min(k, features.shape[1]):
        best, best_loss = -1, np.inf
        for column in range(features.shape[1]):
            if column in chosen:
                continue
            index = [*chosen, column]
            loss = log_loss(fit_logistic(features[:, index], labels, c), features[:, index], labels)
            if loss < best_loss:
                best, best_loss = column, loss
        chosen.append(best)
    PATHS[key] = chosen
    return chosen


def l1_weights(x: np.ndarray, labels: np.ndarray, c: float, start: np.ndarray | None = None) -> np.ndarray:
    """Weights of the L1-penalised logistic regression ``C * log-loss + |w|_1`` (intercept free), each
    weight split into a positive and a negative part so that L-BFGS-B can hold both at zero or above;
    ``start`` (the parameters at the previous penalty of a path) warms the search. Returns those
    parameters: the weights are ``p[:n] - p[n:2n]``."""
    size = x.shape[1]

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        weights = params[:size] - params[size : 2 * size]
        logits = x @ weights + params[-1]
        probability = 1.0 / (1.0 + np.exp(-np.clip(logits, -50, 50)))
        gradient = c * (x.T @ (probability - labels))
        value = c * np.sum(np.logaddexp(0, logits) - labels * logits) + np.sum(params[: 2 * size])
        return value, np.concatenate([gradient + 1.0, 1.0 - gradient, [c * np.sum(probability - labels)]])

    bounds = [(0.0, None)] * (2 * size) + [(None, None)]
    initial = np.zeros(2 * size + 1) if start is None else start
    return minimize(loss, initial, jac=True, method="L-BFGS-B", bounds=bounds).x


def l1_selection(features: np.ndarray, labels: np.ndarray, k: int) -> list[int]:
    """The first ``k`` columns to take a weight along the L1 path (standardised columns, the penalty
    relaxed step by step); columns entering at the same step are taken larger weight first."""
    scales = features.std(axis=0)
    scales[scales == 0] = 1.0
    x = (features - features.mean(axis=0)) / scales
    order: list[int] = []
    params = None
    for c in np.logspace(-4, 0, 25):
        params = l1_weights(x, labels, float(c), params)
        weights = np.abs(params[: x.shape[1]] - params[x.shape[1] : 2 * x.shape[1]])
        order.extend(int(i) for i in np.argsort(-weights) if weights[i] > 1e-6 and int(i) not in order)
        if len(order) >= k:
            break
    return order[:k]


def l1_fitter(k: int, c: float = DEFAULT_C) -> Fitter:
    """The ``k`` features first taken along the L1 path, refitted with the usual L2 penalty; second model
    on every comparison."""

    def fit(pages: list[PageData]) -> FittedModels:
        features, labels = candidate_rows(pages)
        index = l1_selection(features, labels, k)
        return with_second(pages, widened(fit_logistic(features[:, index], labels, c), index, len(FEATURES)), None, c)

    return fit


def widened(fitted: FittedWeights, index: Sequence[int], size: int) -> FittedWeights:
    """A model on the columns ``index`` as one on all ``size`` columns (the others weigh nothing)."""
    full = FittedWeights([0.0] * size, [1.0] * size, [0.0] * size, fitted.intercept)
    for position, column in enumerate(index):
        full.means[column] = fitted.means[position]
        full.scales[column] = fitted.scales[position]
        full.weights[column] = fitted.weights[position]
    return full


def candidate_rows(pages: list[PageData]) -> tuple[np.ndarray, np.ndarray]:
    features = np.array([cand.features for page in pages for cand in page.candidates])
    labels = np.array([cand.label for page in pages for cand in page.candidates], dtype=float)
    return features.reshape(len(labels), len(FEATURES)), labels


def fit_sparse(features: np.ndarray, labels: np.ndarray, k: int, c: float = DEFAULT_C) -> FittedWeights:
    """A logistic model on the ``k`` columns forward selection picks, widened to every column."""
    if not len(labels):
        return FittedWeights([0.0] * features.shape[1], [1.0] * features.shape[1], [0.0] * features.shape[1], -50.0)
    index = forward_selection(features, labels, k, c)
    return widened(fit_logistic(features[:, index], labels, c), index, features.shape[1])


def with_second(pages: list[PageData], evidence: FittedWeights, k: int | None, c: float = DEFAULT_C) -> FittedModels:
    """``evidence`` with a second model fitted against its main lists: on every comparison, or on the
    ``k`` that forward selection picks."""
    features, labels = secondary_rows(pages, evidence)
    if k is None or k >= len(SECONDARY_FEATURES):
        if not len(labels):
            return FittedModels(evidence, fit_sparse(features, labels, 0, c))
        return FittedModels(evidence, fit_logistic(features, labels, c))
    return FittedModels(evidence, fit_sparse(features, labels, k, c))


def sparse_fitter(k: int, second: int | None = None, c: float = DEFAULT_C) -> Fitter:
    """Forward-selected first model of ``k`` features; second model on ``second`` comparisons (all when
    ``None``)."""

    def fit(pages: list[PageData]) -> FittedModels:
        features, labels = candidate_rows(pages)
        return with_second(pages, fit_sparse(features, labels, k, c), second, c)

    return fit


def inner_score(pages: list[PageData], fitter: Fitter) -> float:
    """Mean page F1 of ``fitter`` fitted on each half of ``pages`` and scored on the other."""
    half = len(pages) // 2
    first, second = pages[:half], pages[half:]
    return float(np.mean(page_scores(second, fitter(first)) + page_scores(first, fitter(second))))


@dataclass
class Choice:
    """What a nested fitter chose on each training set it saw (for the report)."""

    picks: list[str]


def nested_sparse_fitter(
    sizes: Sequence[int | None] = (*SIZES, None), sparse_second: bool = False, record: Choice | None = None
) -> Fitter:
    """The number of features chosen on the training pages' own two halves among ``sizes`` (``None``: all
    of them), then fitted on all the training pages; a tie keeps the smaller model."""

    def build(k: int | None) -> Fitter:
        if k is None:
            return lambda pages: fit_models(pages)
        return sparse_fitter(k, k if sparse_second else None)

    def fit(pages: list[PageData]) -> FittedModels:
        scored = [(inner_score(pages, build(k)), k) for k in sizes]
        best = max(score for score, _ in scored)
        k = next(k for score, k in scored if score == best)
        if record is not None:
            record.picks.append("all" if k is None else str(k))
        return build(k)(pages)

    return fit


def training_signs(features: np.ndarray, labels: np.ndarray, index: Sequence[int]) -> np.ndarray:
    """The sign each feature has alone on these rows (its correlation with the label; + when flat)."""
    signs = []
    for column in index:
        values = features[:, column]
        spread = values.std() * labels.std()
        correlation = float(np.mean((values - values.mean()) * (labels - labels.mean())) / spread) if spread else 0.0
        signs.append(-1.0 if correlation < 0 else 1.0)
    return np.array(signs)


def fit_signed(
    features: np.ndarray, labels: np.ndarray, names: Sequence[str], equal: bool, c: float = DEFAULT_C
) -> FittedWeights:
    """A model on ``names`` only, each weight held to the sign its feature has alone; with ``equal``, all
    weights the same (standardised features summed with their signs), so only that one weight and the
    intercept are fitted."""
    index = [FEATURES.index(name) for name in names]
    signs = training_signs(features, labels, index)
    chosen = features[:, index]
    if equal:
        means, scales = chosen.mean(axis=0), chosen.std(axis=0)
        scales[scales == 0] = 1.0
        summed = (((chosen - means) / scales) @ signs).reshape(-1, 1)
        platt = fit_logistic(summed, labels, c)
        weight = platt.weights[0] / platt.scales[0]
        intercept = platt.intercept - weight * platt.means[0]
        fitted = FittedWeights(list(means), list(scales), list(weight * signs), float(intercept))
    else:
        bounds = [(0.0, None) if sign > 0 else (None, 0.0) for sign in signs]
        fitted = fit_logistic(chosen, labels, c, bounds)
    return widened(fitted, index, len(FEATURES))


def signed_fitter(names: Sequence[str] = INTERPRETABLE, equal: bool = False, second: int | None = None) -> Fitter:
    def fit(pages: list[PageData]) -> FittedModels:
        features, labels = candidate_rows(pages)
        return with_second(pages, fit_signed(features, labels, names, equal), second)

    return fit


def bagged_fitter(bags: int = 5, c: float = DEFAULT_C) -> Fitter:
    """The first model averaged (in raw feature units) over ``bags`` fits, each leaving one run of the
    training pages out; the second model fitted once against it."""

    def fit(pages: list[PageData]) -> FittedModels:
        weights, intercepts = [], []
        for bag in range(bags):
            kept = [page for i, page in enumerate(pages) if i * bags // len(pages) != bag]
            fitted = fit_logistic(*candidate_rows(kept), c)
            raw = np.asarray(fitted.weights) / np.asarray(fitted.scales)
            weights.append(raw)
            intercepts.append(fitted.intercept - float(raw @ np.asarray(fitted.means)))
        size = len(FEATURES)
        evidence = FittedWeights([0.0] * size, [1.0] * size, list(np.mean(weights, axis=0)), float(np.mean(intercepts)))
        return with_second(pages, evidence, None, c)

    return fit


def shipped_fitter(c: float | None = None) -> Fitter:
    """The shipped form, both models on every feature; the penalty chosen on the training pages
    (:func:`choose_c`) unless given."""
    return lambda pages: fit_models(pages, choose_c(pages) if c is None else c)


def constants(models: FittedModels) -> tuple[int, int]:
    """Weights fitted to labels (with the intercepts) and standardisation constants, of both models."""
    fitted, standardising = 0, 0
    for model in (models.evidence, models.secondary):
        used = [i for i, weight in enumerate(model.weights) if weight != 0.0]
        distinct = {round(abs(model.weights[i]), 9) for i in used}
        fitted += (1 if len(distinct) == 1 and len(used) > 2 else len(used)) + 1
        standardising += 2 * sum(1 for i in used if model.scales[i] != 1.0 or model.means[i] != 0.0)
    return fitted, standardising


@dataclass
class Estimate:
    """One variant's figures: in-sample, the four cross-half directions, leave-group-out."""

    in_sample: list[float]
    halves: list[tuple[str, list[float]]]
    groups: list[float]
    fitted_constants: int
    standardising_constants: int

    @property
    def in_sample_f1(self) -> float:
        return float(np.mean(self.in_sample))

    @property
    def cross_half(self) -> float:
        return float(np.mean([score for _, scores in self.halves for score in scores]))

    @property
    def cross_half_under(self) -> int:
        return sum(1 for _, scores in self.halves for score in scores if score < LOW_F1)

    @property
    def leave_group_out(self) -> float:
        return float(np.mean(self.groups))

    def as_dict(self) -> dict[str, object]:
        return {
            "in_sample": self.in_sample_f1,
            "in_sample_under": sum(1 for score in self.in_sample if score < LOW_F1),
            "cross_half": self.cross_half,
            "cross_half_under": self.cross_half_under,
            "halves": {name: float(np.mean(scores)) for name, scores in self.halves},
            "leave_group_out": self.leave_group_out,
            "gap_cross_half": self.in_sample_f1 - self.cross_half,
            "gap_leave_group_out": self.in_sample_f1 - self.leave_group_out,
            "fitted_constants": self.fitted_constants,
            "standardising_constants": self.standardising_constants,
        }


def estimate(pages: list[PageData], fitter: Fitter, group_size: int = GROUP_SIZE) -> Estimate:
    """``fitter`` on all pages (in-sample), on each half of the four two-way splits scored on the other,
    and on all but each run of ``group_size`` pages scored on that run."""
    fitted = fitter(pages)
    in_sample = page_scores(pages, fitted)
    halves = [
        (name, page_scores([pages[i] for i in test], fitter([pages[i] for i in train])))
        for name, train, test in half_splits(len(pages))
    ]
    groups = [0.0] * len(pages)
    for start in range(0, len(pages), group_size):
        test = list(range(start, min(start + group_size, len(pages))))
        train = [pages[i] for i in range(len(pages)) if i not in test]
        for i, score in zip(test, page_scores([pages[i] for i in test], fitter(train)), strict=True):
            groups[i] = score
    return Estimate(in_sample, halves, groups, *constants(fitted))
