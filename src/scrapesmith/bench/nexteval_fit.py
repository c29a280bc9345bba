"""Fit the list-evidence weights of :mod:`scrapesmith.dom.list_evidence` on NEXT-EVAL pages.

Every candidate list of every page (read by :mod:`.nexteval_pages`) is labelled a data list when its records overlap the true records
by a mean best Jaccard index of at least 0.5 (NEXT-EVAL's own overlap, :func:`overlap_matrix`). A
logistic regression with an L2 penalty (``C`` as in the usual formulation: ``C * log-loss + |w|^2 / 2``,
intercept not penalised) is fitted on standardised features with scipy. A second model of the same
form is then fitted on the *other* candidates of each page — those that do not overlap the page's
likeliest list under the first model — on how they compare with that main list
(:func:`scrapesmith.dom.list_selection.secondary_features`). ``scrapesmith bench nexteval --fit`` prints
both sets of constants to paste into ``list_evidence.py`` and ``list_selection.py``, and scores them on
pages they were not fitted on (:func:`held_out_report`): runs of consecutive pages held out in turn
(leave-group-out: neighbouring pages are the likeliest to share a source), k-fold and random groups, and
the two-way splits (:func:`cross_halves`: fit on the first half of the pages and score the second, the
reverse, and the same with odd and even pages), each half's F1 with its count of pages under
:data:`LOW_F1` and, over all four, what each class of error costs a page (:func:`cross_half_anatomies`:
main list, extra lists, missed lists, item boundaries). There the penalty too is chosen on the training half alone (:func:`choose_c`), so only
what was written before any split (the features, the thresholds) was seen on the scored pages;
``research/nexteval_simple_variants.py`` scores other ways of choosing lists the same way. With
``--render`` the pages are drawn first and the selection includes the layout check
(:func:`scrapesmith.dom.list_selection.furniture_beside`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from scrapesmith.bench.nexteval import score_records
from scrapesmith.bench.nexteval_anatomy import ErrorAnatomy, LabelledCandidate, anatomy_lines, page_anatomy
from scrapesmith.bench.nexteval_pages import LABEL_OVERLAP, LabelledList, PageData, load_pages
from scrapesmith.dom import (
    DATA_LIST_THRESHOLD,
    FEATURES,
    SECONDARY_FEATURES,
    SECONDARY_FLOOR,
    RankedList,
    overlapping,
    secondary_features,
    select_lists,
)

__all__ = [
    "C_OPTIONS", "DEFAULT_C", "GROUP_SIZE", "LABEL_OVERLAP", "LOW_F1", "SHUFFLE_SEEDS", "CrossHalf", "FittedModels",
    "FittedWeights", "LabelledList", "Method", "PageData", "choose_c", "cross_half_anatomies", "cross_half_f1",
    "cross_halves", "fit_logistic", "fit_models", "fit_secondary", "fit_weights", "half_splits", "held_out",
    "held_out_report", "k_fold", "leave_group_out", "load_pages", "page_anatomies", "page_scores", "ranked_by",
    "score_with", "secondary_rows", "selected", "shipped_method", "shuffled_folds", "two_fold",
]

DEFAULT_C = 0.03
C_OPTIONS = (0.03, 0.01, 0.003, 0.001)  # tried in this order: a tie keeps the weaker penalty
GROUP_SIZE = 10
SHUFFLE_SEEDS = (0, 1, 2)
LOW_F1 = 0.5  # a page under this is counted: the held-out loss sits in a few failed pages


@dataclass
class FittedWeights:
    means: list[float]
    scales: list[float]
    weights: list[float]
    intercept: float

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        logits = ((features - self.means) / self.scales) @ np.asarray(self.weights) + self.intercept
        return 1.0 / (1.0 + np.exp(-np.clip(logits, -50, 50)))

    def as_python(self, names: tuple[str, ...] = FEATURES, prefix: str = "") -> str:
        """The constants as ``list_evidence.py`` (``list_selection.py`` with ``prefix`` ``SECONDARY_``) holds them."""
        rows = [
            f'    "{name}": ({mean:.6g}, {scale:.6g}, {weight:.6g}),'
            for name, mean, scale, weight in zip(names, self.means, self.scales, self.weights, strict=True)
        ]
        body = "\n".join(rows)
        weights = f"{prefix}WEIGHTS" if prefix else "EVIDENCE_WEIGHTS"
        return (
            f"{weights}: dict[str, tuple[float, float, float]] = {{\n{body}\n}}\n"
            f"{prefix}INTERCEPT = {self.intercept:.6g}\n"
        )


@dataclass
class FittedModels:
    """The evidence model and the model judging other lists against the main one."""

    evidence: FittedWeights
    secondary: FittedWeights

    def as_python(self) -> str:
        return self.evidence.as_python() + "\n" + self.secondary.as_python(SECONDARY_FEATURES, "SECONDARY_")


def fit_weights(pages: list[PageData], c: float = DEFAULT_C) -> FittedWeights:
    """L2-penalised logistic regression on the standardised features of every candidate."""
    features = np.array([cand.features for page in pages for cand in page.candidates])
    labels = np.array([cand.label for page in pages for cand in page.candidates], dtype=float)
    return fit_logistic(features, labels, c)


def fit_logistic(
    features: np.ndarray,
    labels: np.ndarray,
    c: float = DEFAULT_C,
    bounds: Sequence[tuple[float | None, float | None]] | None = None,
) -> FittedWeights:
    """L2-penalised logistic regression (``C * log-loss + |w|^2 / 2``) on standardised ``features``; with
    ``bounds``, each weight held within its (low, high) pair (a sign, say), the intercept free."""
    means = features.mean(axis=0)
    scales = features.std(axis=0)
    scales[scales == 0] = 1.0
    x = (features - means) / scales

    def loss(params: np.ndarray) -> tuple[float, np.ndarray]:
        weights, intercept = params[:-1], params[-1]
        logits = x @ weights + intercept
        probability = 1.0 / (1.0 + np.exp(-np.clip(logits, -50, 50)))
        log_loss = np.sum(np.logaddexp(0, logits) - labels * logits)
        gradient = x.T @ (probability - labels)
        value = c * log_loss + 0.5 * weights @ weights
        return value, np.append(c * gradient + weights, c * np.sum(probability - labels))

    limits = None if bounds is None else [*bounds, (None, None)]
    result = minimize(loss, np.zeros(x.shape[1] + 1), jac=True, method="L-BFGS-B", bounds=limits)
    return FittedWeights(list(means), list(scales), list(result.x[:-1]), float(result.x[-1]))


def ranked_by(page: PageData, fitted: FittedWeights) -> list[tuple[RankedList, LabelledList]]:
    """The page's candidates with ``fitted``'s probabilities, likeliest first."""
    if not page.candidates:
        return []
    probabilities = fitted.probabilities(np.array([cand.features for cand in page.candidates]))
    pairs = [
        (RankedList(cand.ranked.region, cand.ranked.evidence, float(probability)), cand)
        for cand, probability in zip(page.candidates, probabilities, strict=True)
    ]
    return sorted(pairs, key=lambda pair: pair[0].probability, reverse=True)


def secondary_rows(pages: list[PageData], evidence: FittedWeights) -> tuple[np.ndarray, np.ndarray]:
    """The second model's training rows: on every page, the candidates :func:`select_lists` weighs against
    the main list (``evidence``'s likeliest), described by :func:`secondary_features`, labelled as for the
    first model."""
    features, labels = [], []
    for page in pages:
        ranked = ranked_by(page, evidence)
        if not ranked:
            continue
        main = ranked[0][0]
        for candidate, cand in ranked[1:]:
            if candidate.probability >= SECONDARY_FLOOR and not overlapping(candidate.region, main.region):
                features.append(secondary_features(candidate, main))
                labels.append(cand.label)
    return np.array(features).reshape(len(features), len(SECONDARY_FEATURES)), np.array(labels, dtype=float)


def fit_secondary(pages: list[PageData], evidence: FittedWeights, c: float = DEFAULT_C) -> FittedWeights:
    """The second model, fitted on :func:`secondary_rows`."""
    features, labels = secondary_rows(pages, evidence)
    if not len(labels):  # a few pages with no other list to learn from: other lists are not taken
        size = len(SECONDARY_FEATURES)
        return FittedWeights([0.0] * size, [1.0] * size, [0.0] * size, -50.0)
    return fit_logistic(features, labels, c)


def fit_models(pages: list[PageData], c: float = DEFAULT_C) -> FittedModels:
    evidence = fit_weights(pages, c)
    return FittedModels(evidence, fit_secondary(pages, evidence, c))


def selected(
    page: PageData, fitted: FittedModels, threshold: float = DATA_LIST_THRESHOLD
) -> tuple[list[tuple[RankedList, LabelledList]], list[RankedList]]:
    """The page's candidates ranked by ``fitted`` and the lists it selects (as :func:`detect_lists` does)."""
    secondary = fitted.secondary

    def judge(candidate: RankedList, main: RankedList) -> float:
        return float(secondary.probabilities(np.array([secondary_features(candidate, main)]))[0])

    ranked = ranked_by(page, fitted.evidence)
    return ranked, select_lists([candidate for candidate, _ in ranked], threshold, judge)


def page_scores(
    pages: list[PageData], fitted: FittedModels, threshold: float = DATA_LIST_THRESHOLD
) -> list[float]:
    """NEXT-EVAL F1 of every page when ``fitted`` ranks and selects the candidates."""
    scores = []
    for page in pages:
        ranked, chosen = selected(page, fitted, threshold)
        records = {id(candidate.region): cand.records for candidate, cand in ranked}
        predicted = [record for candidate in chosen for record in records[id(candidate.region)]]
        scores.append(score_records(predicted, page.truth).f1)
    return scores


def page_anatomies(pages: list[PageData], fitted: FittedModels) -> list[ErrorAnatomy]:
    """Every page's F1 with what each class of error costs it (:mod:`scrapesmith.bench.nexteval_anatomy`)."""
    anatomies = []
    for page in pages:
        ranked, chosen = selected(page, fitted)
        candidates = [LabelledCandidate(candidate, cand.label, cand.records) for candidate, cand in ranked]
        anatomies.append(page_anatomy(page.truth, candidates, chosen))
    return anatomies


def score_with(pages: list[PageData], fitted: FittedModels, threshold: float = DATA_LIST_THRESHOLD) -> float:
    """Mean NEXT-EVAL F1 when ``fitted`` ranks and selects the candidates."""
    scores = page_scores(pages, fitted, threshold)
    return float(np.mean(scores)) if scores else 0.0


def two_fold(pages: list[PageData], c: float = DEFAULT_C) -> tuple[float, float]:
    """F1 on each half of the pages with both models fitted on the other half."""
    half = len(pages) // 2
    first, second = pages[:half], pages[half:]
    return score_with(second, fit_models(first, c)), score_with(first, fit_models(second, c))


def k_fold(pages: list[PageData], folds: int, c: float = DEFAULT_C) -> float:
    """Page-mean F1 when every ``folds``-th page (offset k) is detected with models fitted on the rest."""
    return held_out(pages, [i % folds for i in range(len(pages))], c)


def held_out(pages: list[PageData], groups: Sequence[int], c: float = DEFAULT_C) -> float:
    """Page-mean F1 when each group of pages is detected with both models fitted on the other groups."""
    total = 0.0
    for group in sorted(set(groups)):
        test = [page for page, g in zip(pages, groups, strict=True) if g == group]
        train = [page for page, g in zip(pages, groups, strict=True) if g != group]
        if test and train:
            total += score_with(test, fit_models(train, c)) * len(test)
    return total / max(len(pages), 1)


def leave_group_out(pages: list[PageData], size: int = GROUP_SIZE, c: float = DEFAULT_C) -> float:
    """Page-mean F1 with runs of ``size`` consecutive pages held out in turn (the headline estimate:
    neighbouring pages are the likeliest to share a source, so whole runs are kept apart)."""
    return held_out(pages, [i // size for i in range(len(pages))], c)


def shuffled_folds(pages: list[PageData], folds: int, seed: int, c: float = DEFAULT_C) -> float:
    """Page-mean F1 over ``folds`` random groups of pages (a different split for each ``seed``)."""
    order = np.random.default_rng(seed).permutation(len(pages))
    groups = [0] * len(pages)
    for rank, index in enumerate(order):
        groups[int(index)] = rank % folds
    return held_out(pages, groups, c)


Method = Callable[[list[PageData], list[PageData]], list[float]]
"""A way of detecting records that is fitted (or chosen) on the first pages and gives each of the second
pages' F1."""


def choose_c(pages: list[PageData]) -> float:
    """The penalty whose models, fitted on one half of ``pages`` and scored on the other (both ways), do
    best: chosen on the pages a fit sees, never on the pages it is then scored on."""
    half = len(pages) // 2
    first, second = pages[:half], pages[half:]

    def inner(c: float) -> float:
        return float(
            np.mean(page_scores(second, fit_models(first, c)) + page_scores(first, fit_models(second, c)))
        )

    return max(C_OPTIONS, key=inner)


def shipped_method(c: float | None = None) -> Method:
    """The shipped form, both models refitted on the training pages; the penalty ``c`` chosen on the
    training pages alone (:func:`choose_c`) unless given."""
    return lambda train, test: page_scores(test, fit_models(train, choose_c(train) if c is None else c))


@dataclass
class CrossHalf:
    """One direction of a two-way split: fitted on one half of the pages, scored on the other."""

    split: str
    scores: list[float]

    @property
    def f1(self) -> float:
        return float(np.mean(self.scores)) if self.scores else 0.0

    @property
    def under_half(self) -> int:
        return sum(1 for score in self.scores if score < LOW_F1)

    def line(self) -> str:
        return f"{self.split}: F1 {self.f1:.4f}, {self.under_half} of {len(self.scores)} pages under {LOW_F1}"


def half_splits(count: int) -> list[tuple[str, list[int], list[int]]]:
    """The two-way splits, each in both directions: by page halves (first/second) and odd/even pages."""
    first, second = list(range(count // 2)), list(range(count // 2, count))
    odd, even = list(range(0, count, 2)), list(range(1, count, 2))  # pages 1, 3, 5… are indices 0, 2, 4…
    return [
        ("fit on the first half, score the second", first, second),
        ("fit on the second half, score the first", second, first),
        ("fit on odd pages, score even", odd, even),
        ("fit on even pages, score odd", even, odd),
    ]


def cross_halves(pages: list[PageData], method: Method) -> list[CrossHalf]:
    """``method`` fitted on each half of every two-way split and scored on the other half only."""
    return [
        CrossHalf(name, method([pages[i] for i in train], [pages[i] for i in test]))
        for name, train, test in half_splits(len(pages))
    ]


def cross_half_f1(halves: Sequence[CrossHalf]) -> float:
    """The headline cross-half figure: the mean page F1 over every scored half (each page counted once per
    split)."""
    scores = [score for half in halves for score in half.scores]
    return float(np.mean(scores)) if scores else 0.0


def cross_half_anatomies(pages: list[PageData]) -> list[tuple[str, list[ErrorAnatomy]]]:
    """The shipped form on every two-way split (the penalty chosen inside the training half, as
    :func:`shipped_method`), each scored page with what each class of error costs it."""
    anatomies = []
    for name, train, test in half_splits(len(pages)):
        train_pages = [pages[i] for i in train]
        fitted = fit_models(train_pages, choose_c(train_pages))
        anatomies.append((name, page_anatomies([pages[i] for i in test], fitted)))
    return anatomies


def held_out_report(pages: list[PageData], c: float = DEFAULT_C) -> list[str]:
    """Every held-out split, one line each: the result is these figures, not the fitted one. The two-way
    splits choose the penalty inside each training half (:func:`choose_c`); the others fit at ``c``."""
    anatomies = cross_half_anatomies(pages)
    halves = [CrossHalf(name, [anatomy.f1 for anatomy in split]) for name, split in anatomies]
    shuffled = ", ".join(f"{seed}: {shuffled_folds(pages, 5, seed, c):.4f}" for seed in SHUFFLE_SEEDS)
    groups = leave_group_out(pages, GROUP_SIZE, c)
    five, ten = k_fold(pages, 5, c), k_fold(pages, 10, c)
    return [
        f"held out, runs of {GROUP_SIZE} consecutive pages in turn (leave-group-out): {groups:.4f}",
        *(f"cross-half, {half.line()}" for half in halves),
        (
            f"cross-half, all four directions: F1 {cross_half_f1(halves):.4f}, "
            f"{sum(half.under_half for half in halves)} of {sum(len(half.scores) for half in halves)} "
            f"scored pages under {LOW_F1}"
        ),
        *anatomy_lines([anatomy for _, split in anatomies for anatomy in split], LOW_F1),
        f"held out, 5-fold {five:.4f}; 10-fold {ten:.4f}",
        f"held out, 5 random groups, seeds {shuffled}",
    ]
