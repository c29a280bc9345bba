"""How far record detection on NEXT-EVAL can go: oracle ceilings, the annotation of menus, and the noise
of a 64-page figure.

Issue 34 asks what stands between the detector and F1 0.90. Each page is scored four more times, each
with one more kind of error fixed by the ground truth (a candidate is a true list as the fit labels it,
mean best Jaccard index >= 0.5):

* ``main`` — the main list replaced by the likeliest true candidate (the rest as detected);
* ``added`` — that, with every true candidate that overlaps none taken added (extra lists kept);
* ``selection`` — exactly the true candidates that do not overlap one another (oracle selection); beside
  it ``greedy``, the candidates that overlap none taken added one at a time while F1 rises (a
  selection oracle that needs no label threshold);
* ``boundary`` — the better of those two selections with every item replaced by the distinct true record
  it is matched to (records no selected list reaches stay missed);
* ``metric`` — every distinct true record once: the ceiling the metric itself leaves a perfect detector
  where the truth lists a record twice (an item and its only child cover the same text elements).

Site chrome (navigation, header, footer, menus: the ``in_chrome`` evidence) is where most true lists the
detector leaves out sit; :func:`chrome_policies` scores consistent ways of taking chrome lists, and
:func:`menu_predictors` whether page evidence tells which pages' annotations include them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from scrapesmith.bench.nexteval import overlap_matrix, score_records
from scrapesmith.bench.nexteval_fit import FittedModels, LabelledList, PageData, selected
from scrapesmith.dom import RankedList, overlapping, select_lists

CEILINGS = ("detector", "main", "added", "selection", "greedy", "boundary", "metric")
CHROME_FLOORS = (0.1, 0.2, 0.3, 0.5)
TOP_K = (1, 2, 3)

Pair = tuple[RankedList, LabelledList]


@dataclass(frozen=True)
class PageView:
    """One page as a fitted pair of models sees it: candidates likeliest first and the lists taken."""

    page: PageData
    ranked: list[Pair]
    chosen: list[Pair]


def view_page(page: PageData, fitted: FittedModels) -> PageView:
    ranked, chosen = selected(page, fitted)
    by_region = {id(candidate.region): (candidate, cand) for candidate, cand in ranked}
    return PageView(page, ranked, [by_region[id(candidate.region)] for candidate in chosen])


def view_shipped(page: PageData) -> PageView:
    """The page as the shipped constants rank and select its candidates (what ``bench nexteval`` runs)."""
    ranked = sorted(((cand.ranked, cand) for cand in page.candidates), key=lambda pair: pair[0].probability,
                    reverse=True)
    by_region = {id(candidate.region): (candidate, cand) for candidate, cand in ranked}
    chosen = select_lists([candidate for candidate, _ in ranked])
    return PageView(page, ranked, [by_region[id(candidate.region)] for candidate in chosen])


def f1_of(lists: Sequence[Pair], truth: Sequence[frozenset[str]]) -> float:
    return score_records([record for _, cand in lists for record in cand.records], list(truth)).f1


def add_disjoint(taken: list[Pair], more: Sequence[Pair]) -> list[Pair]:
    """``taken`` with each of ``more`` (in order) that overlaps none taken so far."""
    result = list(taken)
    for pair in more:
        if not any(overlapping(pair[0].region, other.region) for other, _ in result):
            result.append(pair)
    return result


def distinct(truth: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """The true records once each: a record whose text elements equal an earlier one's is a repeat."""
    return list(dict.fromkeys(record for record in truth if record))


def main_fixed(view: PageView) -> list[Pair]:
    """The detected lists with the main list replaced by the likeliest true candidate (if any is true)."""
    true_lists = [pair for pair in view.ranked if pair[1].label]
    if not view.chosen or view.chosen[0][1].label or not true_lists:
        return list(view.chosen)
    main = true_lists[0]
    return [main, *(p for p in view.chosen[1:] if not overlapping(p[0].region, main[0].region))]


def label_selection(view: PageView) -> list[Pair]:
    """Exactly the true candidates, the likeliest first, none overlapping another."""
    return add_disjoint([], [pair for pair in view.ranked if pair[1].label])


def greedy_selection(view: PageView) -> list[Pair]:
    """Candidates touching the truth added one at a time, the one that raises F1 most first, while any does."""
    truth = view.page.truth
    touching = [pair for pair in view.ranked if truth and overlap_matrix(pair[1].records, truth).any()]
    taken: list[Pair] = []
    best = 0.0
    while True:
        options = [pair for pair in touching if len(add_disjoint(taken, [pair])) > len(taken)]
        scored = [(f1_of([*taken, pair], truth), index) for index, pair in enumerate(options)]
        if not scored or max(scored)[0] <= best + 1e-12:
            return taken
        best, index = max(scored)
        taken.append(options[index])


def exact_items(lists: Sequence[Pair], truth: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """The distinct true records the items of ``lists`` are matched to (Hungarian, any overlap)."""
    records = [record for _, cand in lists for record in cand.records]
    unique = distinct(truth)
    if not records or not unique:
        return []
    overlaps = overlap_matrix(records, unique)
    rows, columns = linear_sum_assignment(1.0 - overlaps)
    return [unique[column] for row, column in zip(rows, columns, strict=True) if overlaps[row, column] > 0]


def page_ceilings(view: PageView) -> dict[str, float]:
    """The page's F1 as detected and under each oracle (see the module docstring)."""
    truth = view.page.truth
    label, greedy = label_selection(view), greedy_selection(view)
    label_f1, greedy_f1 = f1_of(label, truth), f1_of(greedy, truth)
    best = label if label_f1 >= greedy_f1 else greedy
    return {
        "detector": f1_of(view.chosen, truth),
        "main": f1_of(main_fixed(view), truth),
        "added": f1_of(add_disjoint(main_fixed(view), [pair for pair in view.ranked if pair[1].label]), truth),
        "selection": label_f1,
        "greedy": greedy_f1,
        "boundary": score_records(exact_items(best, truth), list(truth)).f1,
        "metric": score_records(distinct(truth), list(truth)).f1,
        "repeated_truth": len(truth) - len(distinct(truth)),
    }


def in_chrome(pair: Pair) -> bool:
    return bool(pair[0].evidence.in_chrome)


def chrome_lists(view: PageView, base: Sequence[Pair]) -> list[Pair]:
    """The page's chrome candidates that overlap nothing in ``base`` nor one another, likeliest first."""
    return add_disjoint(list(base), [pair for pair in view.ranked if in_chrome(pair)])[len(base):]


def content_bases(view: PageView) -> dict[str, list[Pair]]:
    """What chrome lists are added to: the detector's lists without chrome (its main list kept wherever it
    sits), and the oracle's content (the likeliest true candidate as main, then every true candidate outside
    chrome)."""
    detected = view.chosen[:1] + [pair for pair in view.chosen[1:] if not in_chrome(pair)]
    fixed = main_fixed(view)[:1]
    oracle = add_disjoint(fixed, [pair for pair in view.ranked if pair[1].label and not in_chrome(pair)])
    return {"detector": detected, "oracle content": oracle}


Policy = Callable[[list[Pair]], list[Pair]]
"""From a page's chrome lists (likeliest first), those a policy takes."""


def consistent_policies() -> dict[str, Policy]:
    """Ways of taking chrome lists that do the same on every page."""
    policies: dict[str, Policy] = {"none": lambda lists: [], "all": lambda lists: lists}
    for k in TOP_K:
        policies[f"top {k}"] = lambda lists, k=k: lists[:k]
    for floor in CHROME_FLOORS:
        policies[f"p >= {floor}"] = lambda lists, floor=floor: [p for p in lists if p[0].probability >= floor]
    return policies


def chrome_policies(view: PageView) -> dict[str, dict[str, float]]:
    """Page F1 for every base and consistent policy, with the per-page best of ``none``/``all`` and the
    true chrome lists exactly (``oracle``) beside them."""
    truth = view.page.truth
    result = {}
    for base_name, base in content_bases(view).items():
        chrome = chrome_lists(view, base)
        scores = {name: f1_of([*base, *policy(chrome)], truth) for name, policy in consistent_policies().items()}
        scores["page oracle none/all"] = max(scores["none"], scores["all"])
        scores["oracle"] = f1_of([*base, *(pair for pair in chrome if pair[1].label)], truth)
        result[base_name] = scores
    return result


def chrome_annotation(view: PageView) -> dict[str, int]:
    """How the page's annotation treats its chrome lists (those that overlap nothing the detector takes
    outside chrome) and how many true lists the detector leaves out, in chrome and in content."""
    chrome = chrome_lists(view, content_bases(view)["detector"])
    missed = add_disjoint(list(view.chosen), [pair for pair in view.ranked if pair[1].label])[len(view.chosen):]
    return {
        "chrome_lists": len(chrome),
        "chrome_true": sum(1 for pair in chrome if pair[1].label),
        "missed_chrome": sum(1 for pair in missed if in_chrome(pair)),
        "missed_content": sum(1 for pair in missed if not in_chrome(pair)),
    }


def page_evidence(view: PageView) -> dict[str, float]:
    """Evidence any page carries that might say whether its annotation takes menus."""
    content = [pair for pair in view.ranked if not in_chrome(pair)]
    main = view.chosen[0] if view.chosen else None
    return {
        "content lists p >= 0.5": float(sum(1 for pair in content if pair[0].probability >= 0.5)),
        "best content p": max((pair[0].probability for pair in content), default=0.0),
        "main list in chrome": float(main is not None and in_chrome(main)),
        "chrome share of candidates": sum(map(in_chrome, view.ranked)) / max(len(view.ranked), 1),
        "candidates": float(len(view.ranked)),
        "main list items": float(main[0].region.size) if main else 0.0,
        "lists taken": float(len(view.chosen)),
    }


def auc(values: Sequence[float], labels: Sequence[bool]) -> float:
    """Probability that a page with the label has a higher value than one without (ties half)."""
    positive = [v for v, label in zip(values, labels, strict=True) if label]
    negative = [v for v, label in zip(values, labels, strict=True) if not label]
    if not positive or not negative:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in positive for n in negative)
    return wins / (len(positive) * len(negative))


@dataclass(frozen=True)
class Stump:
    """Take every chrome list on a page when its ``feature`` is above (or, ``below``, under) ``threshold``."""

    feature: str
    threshold: float
    below: bool

    def takes_menus(self, evidence: dict[str, float]) -> bool:
        value = evidence[self.feature]
        return value <= self.threshold if self.below else value > self.threshold


def stump_f1(stump: Stump, rows: Sequence[dict]) -> float:
    return float(np.mean([row["all"] if stump.takes_menus(row["evidence"]) else row["none"] for row in rows]))


def fit_stump(rows: Sequence[dict]) -> Stump:
    """The one-feature rule (feature, threshold, side) that gives the training ``rows`` the best mean F1;
    each row carries a page's ``evidence`` and its F1 with ``all`` and ``none`` chrome lists."""
    options = [Stump(feature, float(value), below)
               for feature in rows[0]["evidence"]
               for value in sorted({row["evidence"][feature] for row in rows})
               for below in (False, True)]
    return max(options, key=lambda stump: stump_f1(stump, rows))


def sampling_noise(
    scores: Sequence[float], size: int, observed: float, observed_under: int, low: float, draws: int = 100_000
) -> dict[str, float]:
    """How the mean of ``size`` pages drawn (with replacement) from pages like ``scores`` spreads, how often
    it falls to ``observed`` and holds ``observed_under`` pages under ``low``, and the share of pages under
    ``low`` that brings the mean to ``observed`` if the pages over it keep their mean."""
    values = np.asarray(scores, dtype=float)
    picks = np.random.default_rng(0).integers(0, len(values), size=(draws, size))
    means = values[picks].mean(axis=1)
    under = values < low
    counts = under[picks].sum(axis=1)
    high, low_mean = float(values[~under].mean()), float(values[under].mean()) if under.any() else 0.0
    share = (high - observed) / (high - low_mean)
    many_low = counts >= observed_under
    return {
        "pages": len(values),
        "mean": float(values.mean()),
        "median": float(np.median(values)),
        "share_under_low": float(under.mean()),
        "sample_mean_sd": float(means.std()),
        "sample_mean_2.5%": float(np.percentile(means, 2.5)),
        "sample_mean_97.5%": float(np.percentile(means, 97.5)),
        "p_sample_mean_at_most_observed": float((means <= observed).mean()),
        "p_at_least_observed_under": float(many_low.mean()),
        "sample_mean_given_observed_under": float(means[counts == observed_under].mean())
        if (counts == observed_under).any() else float("nan"),
        "mean_over_low": high,
        "mean_under_low": low_mean,
        "share_under_low_for_observed": float(share),
        "pages_under_low_for_observed": float(share * size),
    }
