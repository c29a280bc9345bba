"""Where record detection loses F1 on a page: the main list, extra lists, missed lists, or item boundaries.

A page's loss (``1 - F1``) is split by fixing one kind of error at a time with the labels of its
candidate lists (a candidate is a true list when its records overlap the true records by a mean best
Jaccard index of at least 0.5, as the fit labels them), in this order:

* ``main`` — the main list is not a true list: replaced by the likeliest true candidate;
* ``extra`` — other lists taken that are not true lists: dropped;
* ``missed`` — true candidate lists left out (overlapping none taken): added, likeliest first;
* ``boundary`` — what is left when every list is right: items split or merged, the wrong item level,
  records listed twice in the truth, true records no candidate covers.

Each class costs the F1 its fix gains, so the four add up to ``1 - F1``. ``scrapesmith bench nexteval
--fit`` prints the mean cost of each class over its cross-half runs: the pages the fit never saw are
where the figure has to hold, and the class that costs most there is the one to work on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from scrapesmith.bench.nexteval import score_records
from scrapesmith.dom import RankedList, overlapping

ERROR_CLASSES = ("main", "extra", "missed", "boundary")


@dataclass(frozen=True)
class LabelledCandidate:
    """A candidate list as the anatomy needs it: the ranked list, whether it is a true list, its records."""

    ranked: RankedList
    label: bool
    records: Sequence[frozenset[str]]


@dataclass(frozen=True)
class ErrorAnatomy:
    """One page's F1 and the F1 each class of error costs it (see the module docstring)."""

    f1: float
    costs: dict[str, float]
    extra_lists: int
    missed_lists: int


def page_anatomy(
    truth: Sequence[frozenset[str]], ranked: Sequence[LabelledCandidate], chosen: Sequence[RankedList]
) -> ErrorAnatomy:
    """The anatomy of one page: ``ranked`` its candidates likeliest first, ``chosen`` the lists taken
    (the main list first), ``truth`` the true records."""

    def f1_of(lists: Sequence[LabelledCandidate]) -> float:
        return score_records([record for cand in lists for record in cand.records], list(truth)).f1

    by_region = {id(cand.ranked.region): cand for cand in ranked}
    taken = [by_region[id(candidate.region)] for candidate in chosen]
    true_lists = [cand for cand in ranked if cand.label]
    fixed = list(taken)
    if fixed and not fixed[0].label and true_lists:
        main = true_lists[0]
        fixed = [main, *(cand for cand in fixed[1:] if not overlapping(cand.ranked.region, main.ranked.region))]
    steps = [f1_of(taken), f1_of(fixed)]
    fixed = [cand for cand in fixed if cand.label]
    steps.append(f1_of(fixed))
    missed = 0
    for cand in true_lists:
        if all(cand is not other and not overlapping(cand.ranked.region, other.ranked.region) for other in fixed):
            fixed.append(cand)
            missed += 1
    steps.extend([f1_of(fixed), 1.0])
    costs = {name: after - before for name, (before, after) in zip(ERROR_CLASSES, pairwise(steps), strict=True)}
    return ErrorAnatomy(steps[0], costs, sum(1 for cand in taken[1:] if not cand.label), missed)


def anatomy_lines(anatomies: Sequence[ErrorAnatomy], low: float) -> list[str]:
    """The mean F1 each class costs a page, with how many pages lose more than 0.01 to it."""
    if not anatomies:
        return []
    parts = []
    for name in ERROR_CLASSES:
        costs = [anatomy.costs[name] for anatomy in anatomies]
        parts.append(f"{name} {np.mean(costs):.4f} ({sum(1 for cost in costs if cost > 0.01)} pages)")
    under = sum(1 for anatomy in anatomies if anatomy.f1 < low)
    return [
        f"cross-half loss by class (mean F1 a page loses; pages losing > 0.01): {', '.join(parts)}",
        (
            f"cross-half lists: {sum(a.extra_lists for a in anatomies)} extra lists taken, "
            f"{sum(a.missed_lists for a in anatomies)} true lists missed, over {len(anatomies)} scored pages "
            f"({under} under {low})"
        ),
    ]
