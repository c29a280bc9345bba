"""``bench swde-confidence``: fit the field-confidence model across SWDE sites and measure it leave-one-site-out.

For every development site and every seed window (pages ``w*seeds`` … ``w*seeds+seeds-1``, scored on the
``test`` pages after them), every field is induced with no model exactly as ``induce`` does — with a ranker
fitted *without that site* (so the ranker's probability, one of the signals, is held out too) — and the
chosen candidate's signals (:func:`scrapesmith.induce.confidence.signals`) are kept with the field's strict
executability category on the test pages. The ground truth labels the rows; it is never a signal.

Leave-one-site-out: for each site, a logistic regression is fitted on the other sites' rows and its threshold
chosen from those sites alone (an inner leave-one-site-out: the threshold that flags the most wrong values
while flagging at most :data:`RIGHT_FLAGGED_AT_MOST` of the right ones, on predictions each made without its
site), then the site's fields are flagged. Reported: the share of wrong non-empty values flagged and of right
values flagged, held out and in-sample, on the first window (``bench swde``'s configuration) and on all.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from scrapesmith.bench.metrics import CaseScore
from scrapesmith.bench.swde import SwdeSite, discover_sites, load_groundtruth, read_page, requests_for
from scrapesmith.bench.swde_ranker import C, candidate_rows, fit_ranker
from scrapesmith.induce import (
    CHECK_ONLY,
    CHECKS,
    SHIPPED_CONFIDENCE,
    CompiledSpec,
    ConfidenceModel,
    ScraperSpec,
    check_holds,
    concept_for,
    field_spec_from,
    parse_for_replay,
    post_process,
    rank_candidates,
    trusted,
    use_ranker,
)
from scrapesmith.induce import confidence_signals as signals

RIGHT_FLAGGED_AT_MOST = 0.10
CHECK_RIGHT_AT_MOST = 0.01  # a check doubts by itself when it holds on at most this share of right values
ROWS = Path("bench/data/swde-confidence-rows.jsonl.gz")  # the shipped model's rows (``trained`` in its file)


def site_rows(site: SwdeSite, gt_dir: Path, seeds: int, test: int, windows: int) -> list[dict[str, Any]]:
    """Each field of each seed window of ``site``: the chosen candidate's signals and its test-page category
    (the ranker in use is the caller's: one fitted without the site)."""
    paths = site.page_paths()
    rows = []
    for window in range(windows):
        seed_paths = paths[window * seeds:(window + 1) * seeds]
        test_paths = paths[(window + 1) * seeds:(window + 1) * seeds + test]
        if len(seed_paths) < seeds or not test_paths:
            break
        trees = [parse_for_replay(read_page(p)) for p in seed_paths]
        tests = [parse_for_replay(read_page(p)) for p in test_paths]
        for request in requests_for(site):
            concept = concept_for(request.name, request.instruction)
            ranked = [s for s in rank_candidates(concept, trees, [p.name for p in seed_paths])
                      if trusted(s, len(trees))]
            if not ranked:
                continue
            field = field_spec_from(request, concept, ranked[0])
            truth = load_groundtruth(gt_dir / site.vertical / f"{site.key}-{request.name}.txt")
            compiled = CompiledSpec(ScraperSpec(fields=[field]))
            case = CaseScore()
            for tree, path in zip(tests, test_paths, strict=True):
                raw = compiled.extract_tree(tree)[request.name].raw
                case.add_page(post_process(raw, field.post.model_copy(update={"strip_separators": False})),
                              truth.get(path.stem, []))
            rows.append({"site": site.key, "window": window, "field": request.name,
                         "signals": signals(ranked, concept), "category": case.category,
                         "extracted": case.tp + case.fp > 0, "xpath": field.actions[-1]})
    return rows


def collect_rows(pages: Path, seeds: int, test: int, windows: int, progress: Progress) -> list[dict[str, Any]]:
    gt_dir = pages / "groundtruth"
    ranker_rows, _ = candidate_rows(pages, gt_dir, seeds, test, progress, Path("bench/data/swde-ranker-rows.jsonl.gz"))
    rows: list[dict[str, Any]] = []
    sites = discover_sites(pages)
    task = progress.add_task("confidence rows", total=len(sites))
    for site in sites:
        progress.update(task, description=f"confidence rows on {site.key}")
        fold = fit_ranker([r for r in ranker_rows if r.site != site.key], orders=False)
        with use_ranker(fold):
            rows += site_rows(site, gt_dir, seeds, test, windows)
        progress.advance(task)
    progress.remove_task(task)
    return rows


def checks_for(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The checks (``confidence.CHECKS``) that hold on at most :data:`CHECK_RIGHT_AT_MOST` of the right values of
    ``rows``: facts that right values (almost) never show, so a value showing one is doubted whatever its
    probability. Chosen on the rows alone (the wrong values are not asked: a fact no right value shows is a
    doubt even where no wrong value of these sites showed it)."""
    right = [r["signals"] for r in rows if r["category"] == "correct"]
    kept = [name for name in CHECKS
            if sum(check_holds(name, found) for found in right) <= CHECK_RIGHT_AT_MOST * len(right)]
    singles = {name for name in kept if " & " not in name}  # a pair is kept only where neither part is alone
    return [name for name in kept if " & " not in name or not singles & set(name.split(" & "))]


def fit(rows: Sequence[dict[str, Any]], threshold: float = 0.5, checks: Sequence[str] = ()) -> ConfidenceModel:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    names = sorted({k for r in rows for k in r["signals"]} - set(CHECK_ONLY))
    x = [[r["signals"].get(n, 0.0) for n in names] for r in rows]
    y = [int(r["category"] == "correct") for r in rows]
    scaler = StandardScaler().fit(x)
    scale = [float(s) if s > 0 else 1.0 for s in scaler.scale_]
    model = LogisticRegression(C=C, max_iter=5000).fit((np.asarray(x) - scaler.mean_) / np.asarray(scale), y)
    return ConfidenceModel({"kind": "linear", "features": names, "orders": False, "threshold": threshold,
                            "checks": list(checks),
                            "mean": [round(float(m), 6) for m in scaler.mean_], "scale": [round(s, 6) for s in scale],
                            "weights": [round(float(w), 6) for w in model.coef_[0]],
                            "bias": round(float(model.intercept_[0]), 6)})


def flag_rates(rows: Sequence[dict[str, Any]], probabilities: Sequence[float], threshold: float) -> dict[str, Any]:
    """As ``bench swde`` counts: wrong non-empty values flagged, right values flagged."""
    wrong = [p for r, p in zip(rows, probabilities, strict=True) if r["category"] != "correct" and r["extracted"]]
    right = [p for r, p in zip(rows, probabilities, strict=True) if r["category"] == "correct"]
    return {"wrong_values": len(wrong), "wrong_flagged": round(sum(p < threshold for p in wrong) / max(1, len(wrong)), 3),
            "right_values": len(right), "right_flagged": round(sum(p < threshold for p in right) / max(1, len(right)), 3)}


def choose_threshold(rows: Sequence[dict[str, Any]], probabilities: Sequence[float],
                     checked: Sequence[bool] | None = None) -> float:
    """The threshold that flags the most wrong values while flagging at most RIGHT_FLAGGED_AT_MOST of right ones
    (``checked``: the rows a check doubts already, whatever the threshold)."""
    checked = checked or [False] * len(rows)

    def rates(t: float) -> dict[str, Any]:
        return _rates(rows, [c or p < t for c, p in zip(checked, probabilities, strict=True)])

    options = [0.0, *sorted({round(p, 4) for p in probabilities}), 1.0]
    allowed = [t for t in options if rates(t)["right_flagged"] <= RIGHT_FLAGGED_AT_MOST]
    return max(allowed or [0.0], key=lambda t: (rates(t)["wrong_flagged"], -t))


def held_out(rows: Sequence[dict[str, Any]]) -> tuple[list[float], float]:
    """Each site's rows predicted by a model and checks fitted without it (probabilities in ``rows`` order), and
    the threshold chosen on those predictions."""
    probabilities, checked = [0.0] * len(rows), [False] * len(rows)
    for site in sorted({r["site"] for r in rows}):
        train = [r for r in rows if r["site"] != site]
        model, checks = fit(train), checks_for(train)
        for i, r in enumerate(rows):
            if r["site"] == site:
                probabilities[i] = model.probability(r["signals"])
                checked[i] = any(check_holds(name, r["signals"]) for name in checks)
    return probabilities, choose_threshold(rows, probabilities, checked)


def fitted_without(rows: Sequence[dict[str, Any]], site: str | None) -> ConfidenceModel:
    """The shipped recipe on every site's rows but ``site``'s: the checks right values of those rows (almost)
    never show, the threshold chosen by an inner leave-one-site-out on those rows, then one fit on them all
    (``site`` None: every row, the shipped model)."""
    train = [r for r in rows if r["site"] != site]
    _, threshold = held_out(train)
    return fit(train, threshold, checks_for(train))


def load_rows(path: Path) -> list[dict[str, Any]]:
    """The rows ``bench swde-confidence`` wrote (JSON lines, gzip)."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def loso(rows: Sequence[dict[str, Any]]) -> tuple[list[float], list[bool], dict[str, float]]:
    """Every site flagged by a model and threshold fitted on the other sites alone."""
    probabilities, flagged, thresholds = [0.0] * len(rows), [False] * len(rows), {}
    for site in sorted({r["site"] for r in rows}):
        model = fitted_without(rows, site)
        thresholds[site] = {"threshold": model.threshold, "checks": model.checks}
        for i, r in enumerate(rows):
            if r["site"] == site:
                probabilities[i] = model.probability(r["signals"])
                flagged[i] = model.flags(r["signals"])
    return probabilities, flagged, thresholds


def _rates(rows: Sequence[dict[str, Any]], flagged: Sequence[bool]) -> dict[str, Any]:
    return flag_rates(rows, [0.0 if f else 1.0 for f in flagged], 0.5)


def run(pages: Path, seeds: int, test: int, windows: int, rows_path: Path, output: Path | None,
        json_out: Path | None, progress_factory: Callable[[], Progress], reuse: bool = False) -> dict[str, Any]:
    """Collect (or reuse) the rows, report LOSO and in-sample flag rates, write the shipped model."""
    start = time.perf_counter()
    if reuse and rows_path.is_file():
        rows = load_rows(rows_path)
    else:
        with progress_factory() as progress:
            rows = collect_rows(pages, seeds, test, windows, progress)
        rows_path.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(rows_path, "wt", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in rows)
    collected = time.perf_counter() - start
    _, flagged, thresholds = loso(rows)
    model = fitted_without(rows, None)
    threshold = model.threshold
    inside = [model.flags(r["signals"]) for r in rows]
    first = [i for i, r in enumerate(rows) if r["window"] == 0]
    summary = {
        "rows": len(rows), "sites": len({r["site"] for r in rows}), "threshold": threshold,
        "loso_first_window": _rates([rows[i] for i in first], [flagged[i] for i in first]),
        "in_sample_first_window": _rates([rows[i] for i in first], [inside[i] for i in first]),
        "loso_all_windows": _rates(rows, flagged), "in_sample_all_windows": _rates(rows, inside),
        "checks": model.checks, "loso_thresholds": thresholds, "collect_seconds": round(collected, 1),
    }
    model.data["trained"] = {"rows": len(rows), "data": str(rows_path), "seeds": seeds, "test": test,
                             "windows": windows, "sites": sorted({r["site"] for r in rows}),
                             "command": f"scrapesmith bench swde-confidence --seeds {seeds} --test {test} "
                                        f"--windows {windows} --rows {rows_path}"}
    model.save(output or SHIPPED_CONFIDENCE)
    per_site = []
    for site in sorted({r["site"] for r in rows}):
        picked = [i for i in first if rows[i]["site"] == site]
        per_site.append({"site": site, **_rates([rows[i] for i in picked], [flagged[i] for i in picked])})
    summary["per_site_first_window"] = per_site
    table = Table(title="field confidence: flags (wrong non-empty values flagged / right values flagged)")
    for column in ("figure", "wrong values", "wrong flagged", "right values", "right flagged"):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for name in ("loso_first_window", "in_sample_first_window", "loso_all_windows", "in_sample_all_windows"):
        s = summary[name]
        table.add_row(name.replace("_", " "), str(s["wrong_values"]), f"{s['wrong_flagged']:.3f}",
                      str(s["right_values"]), f"{s['right_flagged']:.3f}")
    Console().print(table)
    Console().print(f"threshold {threshold:.3f}, checks {', '.join(model.checks) or 'none'}; model written to "
                    f"{output or SHIPPED_CONFIDENCE}", highlight=False)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps({"summary": summary, "rows": [
            {k: v for k, v in r.items() if k != "signals"} | {"loso_flagged": f}
            for r, f in zip(rows, flagged, strict=True)]}, indent=1) + "\n", encoding="utf-8")
    return summary
