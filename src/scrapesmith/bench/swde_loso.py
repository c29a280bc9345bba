"""``bench swde --loso``: leave-one-site-out, the development figure that counts.

For every development site the learned ranker and its confidence threshold are fitted on the *other*
sites' candidates only (:mod:`scrapesmith.bench.swde_ranker`), and so is the calibrated field confidence
(:mod:`scrapesmith.bench.confidence`, on the rows ``bench swde-confidence`` kept; ``--method read`` weighs a
disagreement by it), then the site is induced and scored exactly as ``bench swde`` does. The in-sample figure — one model fitted on every site, the shipped one's recipe —
is reported beside it: the gap between the two is how much the fitting learned the sites rather than the
task. Candidates are described once per site (their features do not depend on the model), so each fold
costs one fit, plus the inner folds that choose its threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.progress import Progress

from scrapesmith.bench.confidence import ROWS as CONFIDENCE_ROWS
from scrapesmith.bench.confidence import fitted_without, load_rows
from scrapesmith.bench.frame import BenchResult, report
from scrapesmith.bench.swde import (
    SiteRun,
    case_rows,
    discover_sites,
    group_rows,
    parse_list,
    print_groups,
    run_sites,
    summary_of,
)
from scrapesmith.bench.swde_ranker import candidate_rows, fitted
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import use_confidence, use_ranker
from scrapesmith.llm import LLM


def run_loso(pages: Path, groundtruth: Path, sites: str | None, attributes: str | None, seeds: int, test: int,
             method: str, llm: LLM | None, json_out: Path | None, progress_factory: Callable[[], Progress],
             rows_cache: Path | None = None, strict: bool = False, orders: bool | None = None,
             confidence_rows: Path = CONFIDENCE_ROWS, examples: int = 0) -> BenchResult:
    """Each chosen site induced with a ranker and a field confidence fitted without it, and again with the
    ones fitted on all sites. ``orders`` overrides every fitted model's order switch (False: the
    hand-weighted order, the models weighing confidence only — as the shipped ranker does). ``examples`` N: each
    field learnt from its values on the first N seed pages (``bench swde --examples``), held out the same way."""
    if not confidence_rows.is_file():
        raise ScrapesmithError(f"no field-confidence rows at {confidence_rows} (make them with "
                               "`scrapesmith bench swde-confidence`)")
    judged = load_rows(confidence_rows)
    chosen = discover_sites(pages, parse_list(sites))
    held_out: list[SiteRun] = []
    in_sample: list[SiteRun] = []
    calls: list[dict] = []
    with progress_factory() as progress:
        rows, describe_seconds = candidate_rows(pages, groundtruth, seeds, test, progress, rows_cache)
        everything, _ = fitted(rows)
        confident = fitted_without(judged, None)
        if orders is not None:
            everything.data["orders"] = orders
        folds = {}
        task = progress.add_task("folds", total=len(chosen))
        for site in chosen:
            progress.update(task, description=f"fold without {site.key}")
            fold, inner = fitted([r for r in rows if r.site != site.key])
            if orders is not None:
                fold.data["orders"] = orders
            folds[site.key] = {"orders": inner.orders, "margin": inner.margin, "threshold": inner.threshold,
                               "inner_learned_correct": inner.learned_correct, "inner_hand_correct": inner.hand_correct}
            confidence = fitted_without(judged, site.key)
            folds[site.key]["confidence_threshold"] = confidence.threshold
            with use_ranker(fold), use_confidence(confidence):
                runs, used = run_sites([site], groundtruth, attributes, seeds, test, method, llm, progress,
                                       strict=strict, examples=examples)
            held_out += runs
            calls += used
            with use_ranker(everything), use_confidence(confident):
                in_sample += run_sites([site], groundtruth, attributes, seeds, test, method, llm, progress,
                                       strict=strict, examples=examples)[0]
            progress.advance(task)
    loso, inside = summary_of(held_out), summary_of(in_sample)
    summary = {**loso, **{f"in_sample_{k}": inside[k] for k in ("correct_ratio", "f1", "precision", "recall")},
               "llm_calls": sum(c["llm_calls"] for c in calls),
               "tokens": sum(c["input_tokens"] + c["output_tokens"] for c in calls)}
    per_site = group_rows(held_out, calls, lambda r: r.site.key)
    per_site_inside = group_rows(in_sample, [], lambda r: r.site.key)
    for row, inside_row in zip(per_site, per_site_inside, strict=True):
        row["in_sample_correct"], row["in_sample_f1"] = inside_row["correct_ratio"], inside_row["f1"]
        row["describe_seconds"] = describe_seconds.get(row["group"])
    result = BenchResult(
        name=f"swde LOSO (examples on {examples} seed pages)" if examples else f"swde LOSO ({method})", summary=summary, cases=case_rows(held_out),
        params={"pages": str(pages), "groundtruth": str(groundtruth), "seeds": seeds, "test": test,
                "method": method, "llm": getattr(llm, "name", "none"), "loso": True, "strict": strict, "examples": examples,
                "orders": orders, "confidence_rows": str(confidence_rows),
                "per_site": per_site, "folds": folds, "per_vertical": group_rows(held_out, calls, lambda r: r.site.vertical),
                "specs": {r.site.key: r.spec.model_dump() for r in held_out}},
    )
    report(result, json_out, case_columns=["site", "attribute", "category", "precision", "recall", "f1",
                                            "lenient_category", "xpath"])
    print_groups(f"{result.name}: per site (held out)", per_site)
    return result
