"""What stands between NEXT-EVAL record detection and F1 0.90: oracle ceilings, menus, sampling noise.

Issue 34 (34h). On pages 1-100, with the shipped models (both fitted on every page: in-sample) and with
models fitted on one half of the pages and scored on the other (the four cross-half directions of
``bench nexteval --fit``, the penalty chosen inside the training half), this prints and saves:

1. Ceilings by oracle (``research/analysis/nexteval_ceilings.py``): the detector; its main list replaced by
   the best true candidate; oracle selection among the candidates (by label, and greedy on F1); that
   selection with exact true items; the metric's own ceiling where the truth lists a record twice.
2. Menus: the true lists left out, in site chrome and in content; on how many pages the annotation takes
   chrome lists; consistent chrome policies (none, all, top k, probability floors) added to the detector's
   content and to the oracle's, the best one chosen on each training half and scored on the other; one-
   feature page rules ("this page's annotation takes its menus") fitted on a half and scored on the other,
   and each page feature's AUC for that label.
3. Noise: the mean page F1 of 64 pages drawn from ours (in-sample and cross-half per-page values), how
   often it falls to the kept-aside 0.776 with 11 of 64 pages under 0.5, and the share of pages under 0.5
   that gives 0.776.

Run: ``python research/nexteval_ceilings.py [--render] [--limit N] [--json OUT]`` (a few minutes on 2 cores;
no model; ``--render`` reads the layouts from the layout cache, drawing pages not in it).

Journal: docs/journal/benchmarks.md, "Issue 34 (2026-11-27): what stands between NEXT-EVAL record detection and 0.90 — oracle ceilings, menus, noise (34h)".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from lxml import etree

from analysis.nexteval_ceilings import (
    CEILINGS,
    PageView,
    auc,
    chrome_annotation,
    chrome_policies,
    fit_stump,
    page_ceilings,
    page_evidence,
    sampling_noise,
    stump_f1,
    view_page,
)
from scrapesmith.bench.layout_cache import LayoutCache
from scrapesmith.bench.nexteval import page_ids
from scrapesmith.bench.nexteval_fit import LOW_F1, PageData, choose_c, fit_models, half_splits, load_pages
from scrapesmith.config import read_settings
from scrapesmith.dom import PageLayout
from scrapesmith.web.browser import BrowserRuntime, render_layout

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
KEPT_ASIDE_F1, KEPT_ASIDE_PAGES, KEPT_ASIDE_UNDER = 0.776, 64, 11


def load(html: Path, truth: Path, limit: int | None, render: bool) -> list[PageData]:
    if not render:
        return load_pages(html, truth, limit)
    runtime = BrowserRuntime()
    cache = LayoutCache(read_settings().cache_dir / "layouts", lambda root: render_layout(root, runtime))

    def draw(root: etree._Element) -> PageLayout:
        return cache(root)

    try:
        pages = load_pages(html, truth, limit, draw)
    finally:
        runtime.close()
    print(f"layouts: {cache.drawn} drawn, {cache.hits} from the cache", flush=True)
    return pages


def page_row(page_id: str, view: PageView, split: str) -> dict:
    return {
        "page": page_id,
        "split": split,
        **page_ceilings(view),
        **chrome_annotation(view),
        "policies": chrome_policies(view),
        "evidence": page_evidence(view),
    }


def mean_of(rows: list[dict], key: str) -> float:
    return float(np.mean([row[key] for row in rows]))


def policy_means(rows: list[dict]) -> dict[str, dict[str, float]]:
    bases = rows[0]["policies"]
    return {
        base: {name: float(np.mean([row["policies"][base][name] for row in rows])) for name in names}
        for base, names in bases.items()
    }


def menu_rows(rows: list[dict], base: str) -> list[dict]:
    return [{"evidence": row["evidence"], "all": row["policies"][base]["all"],
             "none": row["policies"][base]["none"]} for row in rows]


def held_out_choices(train: list[dict], test: list[dict]) -> dict[str, dict]:
    """Per base: the consistent policy best on ``train`` scored on ``test``, and the one-feature menus rule
    fitted on ``train`` scored on ``test``."""
    result = {}
    for base, scores in policy_means(train).items():
        consistent = {name: value for name, value in scores.items() if "oracle" not in name}
        policy = max(consistent, key=consistent.get)
        stump = fit_stump(menu_rows(train, base))
        result[base] = {
            "policy": policy,
            "policy_scores": [row["policies"][base][policy] for row in test],
            "stump": f"{stump.feature} {'<=' if stump.below else '>'} {stump.threshold:.4g}",
            "stump_scores": [
                row["policies"][base]["all"] if stump.takes_menus(row["evidence"]) else row["policies"][base]["none"]
                for row in test
            ],
            "stump_train_f1": stump_f1(stump, menu_rows(train, base)),
        }
    return result


def chrome_summary(rows: list[dict]) -> dict:
    with_chrome = [row for row in rows if row["chrome_lists"]]
    labels = [row["chrome_true"] > 0 for row in with_chrome]
    features = rows[0]["evidence"]
    taking = [row for row in rows if row["chrome_true"]]
    others = [row for row in rows if not row["chrome_true"]]
    return {
        "missed_chrome": sum(row["missed_chrome"] for row in rows),
        "missed_content": sum(row["missed_content"] for row in rows),
        "pages_with_chrome_lists": len(with_chrome),
        "pages_taking_some_chrome": sum(labels),
        "pages_taking_every_chrome_list": sum(1 for row in with_chrome if row["chrome_true"] == row["chrome_lists"]),
        "detector_f1_pages_taking_chrome": float(np.mean([row["detector"] for row in taking])) if taking else None,
        "detector_f1_other_pages": float(np.mean([row["detector"] for row in others])) if others else None,
        "pages_under_low_taking_chrome": sum(1 for row in taking if row["detector"] < LOW_F1),
        "pages_under_low": sum(1 for row in rows if row["detector"] < LOW_F1),
        "chrome_lists": sum(row["chrome_lists"] for row in rows),
        "chrome_lists_true": sum(row["chrome_true"] for row in rows),
        "auc_takes_menus": {
            name: auc([row["evidence"][name] for row in with_chrome], labels) for name in features
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--render", action="store_true", help="candidates with layout evidence (layout cache)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    html, truth = args.data / "html", args.data / "groundtruth"
    ids = page_ids(html, truth)[: args.limit]
    pages = load(html, truth, args.limit, args.render)
    print(f"{len(pages)} pages loaded", flush=True)
    fitted = fit_models(pages)
    in_sample = [page_row(ids[i], view_page(page, fitted), "in-sample") for i, page in enumerate(pages)]
    cross, choices = [], []
    for name, train, test in half_splits(len(pages)):
        models = fit_models([pages[i] for i in train], choose_c([pages[i] for i in train]))
        train_rows = [page_row(ids[i], view_page(pages[i], models), name) for i in train]
        test_rows = [page_row(ids[i], view_page(pages[i], models), name) for i in test]
        cross.extend(test_rows)
        choices.append({"split": name, **held_out_choices(train_rows, test_rows)})
        print(f"{name}: done", flush=True)
    per_page_cross = {}
    for row in cross:
        per_page_cross.setdefault(row["page"], []).append(row["detector"])
    noise_inputs = {
        "in-sample": [row["detector"] for row in in_sample],
        "cross-half (page mean of its two scores)": [float(np.mean(v)) for v in per_page_cross.values()],
        "cross-half (200 scored pages)": [row["detector"] for row in cross],
    }
    summary = {
        "pages": len(pages),
        "render": args.render,
        "ceilings": {
            label: {key: mean_of(rows, key) for key in CEILINGS}
            for label, rows in (("in-sample", in_sample), ("cross-half", cross))
        },
        "pages_with_repeated_truth": sum(1 for row in in_sample if row["repeated_truth"]),
        "repeated_true_records": sum(row["repeated_truth"] for row in in_sample),
        "chrome": {label: chrome_summary(rows) for label, rows in (("in-sample", in_sample), ("cross-half", cross))},
        "policies": {label: policy_means(rows) for label, rows in (("in-sample", in_sample), ("cross-half", cross))},
        "held_out_choice": {
            base: {
                "policy_f1": float(np.mean([s for c in choices for s in c[base]["policy_scores"]])),
                "policies_chosen": [c[base]["policy"] for c in choices],
                "stump_f1": float(np.mean([s for c in choices for s in c[base]["stump_scores"]])),
                "stumps": [c[base]["stump"] for c in choices],
            }
            for base in ("detector", "oracle content")
        },
        "noise": {
            label: sampling_noise(values, KEPT_ASIDE_PAGES, KEPT_ASIDE_F1, KEPT_ASIDE_UNDER, LOW_F1)
            for label, values in noise_inputs.items()
        },
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        payload = {"summary": summary, "in_sample": in_sample, "cross_half": cross}
        args.json.write_text(json.dumps(payload, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
