"""The learned ranker's training data and fitting, from SWDE development sites.

For every site and attribute the heuristic's candidates are proposed and described on the site's first
``seeds`` pages exactly as induction does (``induce.ranking.described``); each candidate's label is what the
field would score if it were chosen: the strict executability F1 of its spec on the site's *test* pages
(the ground truth is read for the label only, never for a feature). A model fitted on some sites' rows then
ranks candidates on a site it never saw (``bench swde --loso``), or on any site (the shipped model, fitted
on all development sites by ``scrapesmith bench swde-ranker``).

The model is scikit-learn's gradient boosting, exported to the small JSON that ``induce.ranking`` evaluates
without scikit-learn. The confidence threshold under which a field is flagged is chosen on the training
sites alone, from predictions each made by a model fitted without it (an inner leave-one-site-out).
"""

from __future__ import annotations

import gzip
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from scrapesmith.bench.metrics import CaseScore
from scrapesmith.bench.swde import SwdeSite, discover_sites, load_groundtruth, read_page, requests_for
from scrapesmith.induce import (
    SHIPPED_RANKER,
    CompiledSpec,
    RankerModel,
    ScraperSpec,
    described_candidates,
    parse_for_replay,
    post_process,
)

TREES = 150
DEPTH = 3
RATE = 0.05
MIN_LEAF = 20


@dataclass
class CandidateRow:
    """One candidate of one site's field: its features on the seeds and how it scores on the test pages."""

    site: str
    field: str
    rank: int
    xpath: str
    trusted: bool
    features: dict[str, float]
    f1: float

    @property
    def correct(self) -> bool:
        return self.f1 >= 0.99995


def site_rows(site: SwdeSite, gt_dir: Path, seeds: int = 3, test: int = 200) -> list[CandidateRow]:
    """Every site-attribute's first trusted candidates (hand-weighted order), described and scored."""
    paths = site.page_paths()
    seed_trees = [parse_for_replay(read_page(p)) for p in paths[:seeds]]
    test_paths = paths[seeds : seeds + test]
    test_trees = [parse_for_replay(read_page(p)) for p in test_paths]
    rows = []
    for request in requests_for(site):
        truth = load_groundtruth(gt_dir / site.vertical / f"{site.key}-{request.name}.txt")
        for rank, (field, features) in enumerate(described_candidates(request, seed_trees,
                                                                      [p.name for p in paths[:seeds]])):
            compiled = CompiledSpec(ScraperSpec(fields=[field]))
            case = CaseScore()
            for tree, path in zip(test_trees, test_paths, strict=True):
                raw = compiled.extract_tree(tree)[request.name].raw
                case.add_page(post_process(raw, field.post.model_copy(update={"strip_separators": False})),
                              truth.get(path.stem, []))
            rows.append(CandidateRow(site.key, request.name, rank, field.actions[-1], True, features,
                                     round(case.f1, 4)))
    return rows


def save_rows(rows: Sequence[CandidateRow], path: Path) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row.__dict__, separators=(",", ":")) + "\n")


def load_rows(path: Path) -> list[CandidateRow]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [CandidateRow(**json.loads(line)) for line in handle if line.strip()]


KINDS = ("linear", "trees")
KIND = "linear"  # what LOSO on the 16 development sites favoured (BENCHMARKS.md, "learned ranker")
C = 0.3  # the logistic regression's inverse regularisation


def fit_ranker(rows: Sequence[CandidateRow], threshold: float | None = None, orders: bool = True,
               kind: str = KIND) -> RankerModel:
    """A model over the rows' features, target "this candidate's field is Correct": a logistic regression on
    standardised features (``linear``) or gradient-boosted trees (``trees``), exported to the JSON that
    ``induce.ranking`` evaluates without scikit-learn."""
    names = sorted({k for r in rows for k in r.features})
    x = [[r.features.get(n, 0.0) for n in names] for r in rows]
    y = [int(r.correct) for r in rows]
    if len(set(y)) < 2:  # nothing to tell apart (one small site, every candidate right or wrong): a constant
        share = min(max(sum(y) / max(1, len(y)), 0.01), 0.99)
        return RankerModel({"kind": "linear", "features": names, "orders": orders, "mean": [0.0] * len(names),
                            "scale": [1.0] * len(names), "weights": [0.0] * len(names),
                            "bias": math.log(share / (1 - share)),
                            **({"threshold": threshold} if threshold is not None else {})})
    if kind == "linear":
        return RankerModel(fit_linear(x, y, names, threshold, orders))
    from sklearn.ensemble import GradientBoostingClassifier

    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE,
                                       min_samples_leaf=MIN_LEAF, subsample=0.8, random_state=0)
    model.fit(x, y)
    return RankerModel(export_trees(model, names, threshold, orders))


def fit_linear(x: list[list[float]], y: list[int], names: list[str], threshold: float | None,
               orders: bool = True) -> dict:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=C, max_iter=5000).fit(scaler.transform(x), y)
    data = {"kind": "linear", "features": names, "orders": orders,
            "mean": [round(float(m), 6) for m in scaler.mean_], "scale": [round(float(s), 6) for s in scaler.scale_],
            "weights": [round(float(w), 6) for w in model.coef_[0]], "bias": round(float(model.intercept_[0]), 6)}
    if threshold is not None:
        data["threshold"] = threshold
    return data


def export_trees(model, names: list[str], threshold: float | None, orders: bool = True) -> dict:
    import numpy as np

    trees = []
    for estimator in model.estimators_[:, 0]:
        tree = estimator.tree_
        trees.append({"feature": [int(f) for f in tree.feature], "threshold": [round(float(t), 6) for t in tree.threshold],
                      "left": [int(c) for c in tree.children_left], "right": [int(c) for c in tree.children_right],
                      "value": [round(float(v), 6) for v in tree.value[:, 0, 0]]})
    base = float(model._raw_predict_init(np.zeros((1, len(names))))[0, 0])
    data = {"kind": "trees", "features": names, "base": base, "rate": model.learning_rate, "orders": orders,
            "trees": trees}
    if threshold is not None:
        data["threshold"] = threshold
    return data


MARGINS = (0.0, 0.1, 0.2, 0.3)  # how much likelier than the hand-weighted first another candidate must be


def field_choices(rows: Sequence[CandidateRow], model: RankerModel | None,
                  margin: float | None = None) -> dict[tuple[str, str], CandidateRow]:
    """Per site-field, the candidate induction would choose: the model's likeliest when the model orders and
    it is likelier than the hand-weighted first (rank 0) by more than the margin, else that first."""
    margin = (model.margin if model is not None else 0.0) if margin is None else margin
    ordering = model is not None and model.orders
    fields: dict[tuple[str, str], list[CandidateRow]] = {}
    for row in rows:
        fields.setdefault((row.site, row.field), []).append(row)
    chosen = {}
    for key, candidates in fields.items():
        first = min(candidates, key=lambda r: r.rank)
        chosen[key] = first
        if ordering:
            probabilities = model.probabilities([r.features for r in candidates])
            at = max(range(len(candidates)), key=lambda i: (round(float(probabilities[i]), 6), -candidates[i].rank))
            if probabilities[at] - probabilities[candidates.index(first)] > margin:
                chosen[key] = candidates[at]
    return chosen


@dataclass
class InnerFolds:
    """What the training sites alone say, each weighed by a model fitted without it: whether the model's
    order beats the hand weights' (and by which margin it must), and the confidence under which a chosen
    value is flagged."""

    threshold: float
    orders: bool
    learned_correct: int
    hand_correct: int
    margin: float = 0.0


def inner_folds(rows: Sequence[CandidateRow]) -> InnerFolds:
    """Leave each site of ``rows`` out in turn: count the fields the hand-weighted choice gets right and those
    the model's gets right under each margin of :data:`MARGINS`; the model orders when its best margin gets
    more right (ties: the larger margin). The threshold flags the most wrong values for the fewest right ones
    (wrong share flagged minus twice the right share) among the held-out probabilities of the values chosen."""
    sites = sorted({r.site for r in rows})
    hand = 0
    learned = dict.fromkeys(MARGINS, 0)
    held_out: list[tuple[RankerModel, list[CandidateRow]]] = []
    for site in sites:
        model = fit_ranker([r for r in rows if r.site != site])
        held = [r for r in rows if r.site == site]
        hand += sum(r.correct for r in field_choices(held, None).values())
        for margin in MARGINS:
            learned[margin] += sum(r.correct for r in field_choices(held, model, margin).values())
        held_out.append((model, held))
    margin = max(MARGINS, key=lambda m: (learned[m], m))
    orders = learned[margin] > hand
    outcomes = []
    for model, held in held_out:
        choices = field_choices(held, model, margin) if orders else field_choices(held, None)
        outcomes += [(model.probability(r.features), r.correct) for r in choices.values()]
    right = [p for p, ok in outcomes if ok]
    wrong = [p for p, ok in outcomes if not ok]
    threshold = 0.5
    if right and wrong:
        options = sorted({round(p, 4) for p, _ in outcomes})
        threshold = max(options, key=lambda t: (sum(p < t for p in wrong) / len(wrong)
                                                 - 2 * sum(p < t for p in right) / len(right)))
    return InnerFolds(threshold, orders, learned[margin], hand, margin)


def fitted(rows: Sequence[CandidateRow]) -> tuple[RankerModel, InnerFolds]:
    """The ranker fitted on every row, with its order switch, margin and threshold from the rows' inner folds."""
    folds = inner_folds(rows)
    model = fit_ranker(rows, folds.threshold, folds.orders)
    model.data["margin"] = folds.margin
    return model, folds


def candidate_rows(pages: Path, groundtruth: Path, seeds: int, test: int, progress: Progress,
                   cache: Path | None = None) -> tuple[list[CandidateRow], dict[str, float]]:
    """Every development site's described candidates (from ``cache`` when it exists), and the seconds each
    site took to describe."""
    if cache is not None and cache.is_file():
        return load_rows(cache), {}
    every = discover_sites(pages)
    rows: list[CandidateRow] = []
    seconds: dict[str, float] = {}
    task = progress.add_task("describing candidates", total=len(every))
    for site in every:
        progress.update(task, description=f"describing candidates on {site.key}")
        start = time.perf_counter()
        rows += site_rows(site, groundtruth, seeds, test)
        seconds[site.key] = round(time.perf_counter() - start, 2)
        progress.advance(task)
    progress.remove_task(task)
    if cache is not None:
        save_rows(rows, cache)
    return rows, seconds


def train_shipped(pages: Path, groundtruth: Path, seeds: int, test: int, rows_path: Path, output: Path | None,
                  progress_factory: Callable[[], Progress], orders: bool | None = None) -> RankerModel:
    """``scrapesmith bench swde-ranker``: describe every development site's candidates afresh, keep them as
    the training data (``rows_path``), fit with the order switch and threshold from the inner folds, and
    write the model (by default the file the package ships). ``orders`` overrides the inner folds' switch
    (``--no-orders``: the model weighs the chosen value's confidence but leaves the hand-weighted order, as
    it ships while ``bench swde --loso`` finds its order no better). Prints each site's cost."""
    with progress_factory() as progress:
        rows, seconds = candidate_rows(pages, groundtruth, seeds, test, progress)
    rows_path.parent.mkdir(parents=True, exist_ok=True)
    save_rows(rows, rows_path)
    start = time.perf_counter()
    model, folds = fitted(rows)
    if orders is not None:
        model.data["orders"] = orders
    flag = "" if orders is None else " --orders" if orders else " --no-orders"
    model.data["trained"] = {
        "sites": sorted({r.site for r in rows}), "rows": len(rows), "data": str(rows_path), "seeds": seeds,
        "test": test, "describe_seconds": seconds, "fit_seconds": round(time.perf_counter() - start, 1),
        "inner_learned_correct": folds.learned_correct, "inner_hand_correct": folds.hand_correct,
        "orders_from_inner_folds": folds.orders, "margin": folds.margin,
        "command": f"scrapesmith bench swde-ranker --seeds {seeds} --test {test} --rows {rows_path}{flag}"}
    model.save(output or SHIPPED_RANKER)
    table = Table(title="ranker: cost per site")
    for column in ("site", "candidates", "describe s"):
        table.add_column(column, justify="left" if column == "site" else "right")
    for site, spent in seconds.items():
        table.add_row(site, str(sum(r.site == site for r in rows)), f"{spent:.1f}")
    Console().print(table)
    Console().print(f"{len(rows)} candidates; inner folds: model's order {folds.learned_correct} fields Correct, "
                    f"hand weights' {folds.hand_correct} -> orders={model.orders} (margin {folds.margin}), "
                    f"threshold {folds.threshold:.3f}; "
                    f"written to {output or SHIPPED_RANKER}", highlight=False)
    return model
