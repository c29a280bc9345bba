"""What a template mutation moves in the list evidence, and which class of loss it grows (issue 34f).

For every NEXT-EVAL page and mutation kind (``bench nexteval --mutate``), the candidates are ranked on the
page as it is, the page is redrawn in place, and ranked again. A candidate whose items are the same
elements before and after is the same list, so each evidence feature's change can be read off it: the
mean absolute change of every feature over those lists (and over the page's true lists alone), how many
lists vanish, and how often the main list changes. The loss of each redrawn page is split into the main
list, extra lists, missed lists and item boundaries (:mod:`scrapesmith.bench.nexteval_anatomy`) with the
shipped models (no refit), beside the same split on the pages as they are.

Run: ``python research/nexteval_mutation_anatomy.py --kinds classes,wrappers,... [--seeds 0] [--json OUT]``
(minutes on 2 cores; no model, no browser; run it under the shared lock).

Journal: docs/journal/benchmarks.md, "Issue 34 (2026-11-27, late morning): NEXT-EVAL pages redrawn in other templates (`bench nexteval --mutate`)".
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from scrapesmith.bench.nexteval import expand_record, nexteval_xpath, overlap_matrix, page_ids, text_map_keys
from scrapesmith.bench.nexteval_anatomy import ERROR_CLASSES
from scrapesmith.bench.nexteval_fit import (
    LABEL_OVERLAP,
    FittedModels,
    FittedWeights,
    LabelledList,
    PageData,
    page_anatomies,
)
from scrapesmith.bench.nexteval_mutated import UNMUTATED, locate_truth
from scrapesmith.bench.nexteval_mutated import truth_paths as redrawn_truth
from scrapesmith.dom import TEMPLATE_MUTATIONS, find_record_regions, parse_html, rank_lists
from scrapesmith.dom.list_evidence import EVIDENCE_WEIGHTS, FEATURES, INTERCEPT
from scrapesmith.dom.list_selection import SECONDARY_FEATURES, SECONDARY_INTERCEPT, SECONDARY_WEIGHTS

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"


def shipped_models() -> FittedModels:
    """Both models as shipped, in the form the fit's scoring reads."""

    def weights(table: dict[str, tuple[float, float, float]], names: tuple[str, ...], intercept: float) -> FittedWeights:
        rows = [table[name] for name in names]
        return FittedWeights([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], intercept)

    return FittedModels(weights(EVIDENCE_WEIGHTS, FEATURES, INTERCEPT),
                        weights(SECONDARY_WEIGHTS, SECONDARY_FEATURES, SECONDARY_INTERCEPT))


def candidates(root, truth_paths):  # type: ignore[no-untyped-def]
    """The page's ranked candidates, labelled as the fit labels them, keyed by their items' identity."""
    keys = text_map_keys(root)
    truth = [expand_record(record, keys) for record in truth_paths]
    listed = []
    for ranked in rank_lists(root, find_record_regions(root)):
        region = ranked.region
        records = [expand_record([nexteval_xpath(e) for e in region.record(k)], keys) for k in range(region.size)]
        overlap = overlap_matrix(records, truth).max(axis=1).mean() if truth else 0.0
        listed.append(LabelledList(ranked.evidence.features(), bool(overlap >= LABEL_OVERLAP), records, ranked))
    return truth, listed


def item_key(cand: LabelledList) -> frozenset[int]:
    """The list's identity: its item elements, in any order (``reorder`` reverses them)."""
    return frozenset(id(item) for item in cand.ranked.region.items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--kinds", default="classes,wrappers,reorder,labels,combined,headings,tables,icons,split")
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    html_dir, truth_dir = args.data / "html", args.data / "groundtruth"
    ids = page_ids(html_dir, truth_dir)[: args.limit]
    seeds = [int(s) for s in args.seeds.split(",")]
    models = shipped_models()
    report: dict[str, dict] = {}
    for kind in [UNMUTATED, *args.kinds.split(",")]:
        deltas: dict[str, list[float]] = defaultdict(list)
        true_deltas: dict[str, list[float]] = defaultdict(list)
        pages, kept, vanished, main_changed = [], 0, 0, 0
        for seed in seeds if kind != UNMUTATED else [0]:
            for page_id in ids:
                root = parse_html((html_dir / f"{page_id}.html").read_bytes())
                truth_paths = json.loads((truth_dir / f"{page_id}.json").read_text(encoding="utf-8"))
                found = locate_truth(root, truth_paths)
                _, before = candidates(root, truth_paths)
                main_before = item_key(before[0]) if before else None
                if kind != UNMUTATED:
                    TEMPLATE_MUTATIONS[kind](root, seed)
                truth_after, _ = redrawn_truth(root, found)
                truth, after = candidates(root, truth_after)
                pages.append(PageData(truth, after))
                by_items = {item_key(cand): cand for cand in after}
                for cand in before:
                    twin = by_items.get(item_key(cand))
                    if twin is None:
                        vanished += 1
                        continue
                    kept += 1
                    for name, old, new in zip(FEATURES, cand.features, twin.features, strict=True):
                        deltas[name].append(abs(new - old))
                        if cand.label:
                            true_deltas[name].append(abs(new - old))
                main_changed += bool(after) and main_before != item_key(after[0])
        anatomies = page_anatomies(pages, models)
        moved = sorted(((float(np.mean(v)), k) for k, v in deltas.items()), reverse=True)
        report[kind] = {
            "pages": len(pages),
            "f1": float(np.mean([a.f1 for a in anatomies])),
            "loss_by_class": {name: float(np.mean([a.costs[name] for a in anatomies])) for name in ERROR_CLASSES},
            "extra_lists": sum(a.extra_lists for a in anatomies),
            "missed_lists": sum(a.missed_lists for a in anatomies),
            "candidates_kept": kept,
            "candidates_vanished": vanished,
            "main_list_changed": int(main_changed),
            "feature_change_all": {k: round(v, 4) for v, k in moved if v > 0},
            "feature_change_true_lists": {k: round(float(np.mean(v)), 4) for k, v in true_deltas.items()
                                          if np.mean(v) > 0},
        }
        row = report[kind]
        top = ", ".join(f"{k} {v}" for k, v in list(row["feature_change_all"].items())[:5])
        loss = ", ".join(f"{k} {v:.4f}" for k, v in row["loss_by_class"].items())
        print(f"{kind}: F1 {row['f1']:.4f}; loss {loss}; extra {row['extra_lists']} missed {row['missed_lists']}; "
              f"lists kept {kept} vanished {vanished}; main list changed on {main_changed} pages; moved: {top}",
              flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
