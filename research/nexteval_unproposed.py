"""Which true record lists of NEXT-EVAL pages 1-100 are never proposed as candidates, and what they cost.

Issue 34: the cross-half anatomy charges "missed lists" only for true lists that *are* candidates; a list
that :func:`scrapesmith.dom.lists.find_record_regions` never proposes can only be found by changing the
candidate generator. Here the true records of each page are grouped into true lists (records whose first
element shares a parent), and each true list is looked up among the candidates: proposed when some
candidate's records cover its records by a mean best Jaccard index of at least 0.5 (the label the fit
uses). A true list that is not proposed is put in one class, the first that holds:

* ``one item`` — a single record under its parent (no run of siblings to propose);
* ``two items`` — two records (under the default floor of three items);
* ``proposed with 2`` — three or more records, found only when the floor is lowered to two (text-less
  members dropped from a run take it under three);
* ``not siblings alike`` — the records' elements do not group as look-alike siblings (tag, class or
  fingerprint differ), or the record is not one element of the run.

For each class the F1 at stake is the mean page F1 gained when its true records are added to what the
shipped detector takes (an oracle ceiling: no detector reaches it). ``--min-items 2`` also scores the
shipped detector on candidates generated with a floor of two (the fitted models unchanged) — the
cheapest way to see whether two-item runs help or hurt as they are. Each proposer of ``--propose`` is
counted too: candidates, two-item candidates, and true two-item lists a two-item candidate covers.

``--refit --propose 2|2-like-longer|3`` refits both models on other candidates (a floor of two; two-item
runs only where a longer run shares their template; the shipped floor) and prints every held-out figure of
``bench nexteval --fit``.

Run: ``python research/nexteval_unproposed.py [--limit N] [--json OUT]`` (about a minute; no model, no
browser; ``--refit`` a few minutes).

Journal: docs/journal/benchmarks.md, "1. Count (`python research/nexteval_unproposed.py --min-items 2 --json bench/results/nexteval-issue34d-unproposed.json`)".
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from scrapesmith.bench.nexteval import (
    expand_record,
    nexteval_xpath,
    normalize_xpath,
    overlap_matrix,
    page_ids,
    score_records,
    text_map_keys,
)
from scrapesmith.bench.nexteval_fit import LABEL_OVERLAP, fit_models, held_out_report, load_pages, score_with
from scrapesmith.dom import (
    RecordRegion,
    detect_lists,
    find_record_regions,
    parse_html,
    rank_lists,
    select_lists,
)
from scrapesmith.dom.list_evidence import signature

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
CLASSES = ("one item", "two items", "proposed with 2", "not siblings alike")


def two_items_like_longer(root) -> list[RecordRegion]:
    """Runs of two or more, a two-item run kept only when a run of three or more on the page is built
    from its template (same item and container tag and class): a short list among look-alike longer
    ones, evidence that needs no fitting."""
    regions = find_record_regions(root, min_items=2)
    longer = {signature(region) for region in regions if region.size >= 3}
    return [region for region in regions if region.size >= 3 or signature(region) in longer]


PROPOSERS = {
    "3": find_record_regions,
    "2": lambda root: find_record_regions(root, min_items=2),
    "2-like-longer": two_items_like_longer,
}


def true_lists(records: list[list[str]]) -> list[list[int]]:
    """Indices of the true records grouped by the parent of each record's first element."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, record in enumerate(records):
        if record:
            groups[normalize_xpath(record[0]).rsplit("/", 1)[0]].append(index)
    return list(groups.values())


def covered(truth: list[frozenset[str]], candidates: list[list[frozenset[str]]]) -> bool:
    """Some candidate covers these true records by a mean best Jaccard index >= the label threshold."""
    return any(
        candidate and overlap_matrix(truth, candidate).max(axis=1).mean() >= LABEL_OVERLAP
        for candidate in candidates
    )


def candidate_records(root, keys: list[str], min_items: int) -> list[list[frozenset[str]]]:
    return [
        [expand_record([nexteval_xpath(e) for e in region.record(k)], keys) for k in range(region.size)]
        for region in find_record_regions(root, min_items=min_items)
    ]


def page_report(html: bytes, records: list[list[str]], min_items: int) -> dict[str, object]:
    root = parse_html(html)
    keys = text_map_keys(root)
    truth = [expand_record(record, keys) for record in records]
    shipped = [
        expand_record([nexteval_xpath(e) for e in region.record(k)], keys)
        for region in detect_lists(root)
        for k in range(region.size)
    ]
    at_three = candidate_records(root, keys, 3)
    at_two = candidate_records(root, keys, 2)
    lists, unproposed = [], defaultdict(list)
    for members in true_lists(records):
        records_of = [truth[i] for i in members if truth[i]]
        if not records_of:
            continue
        proposed = covered(records_of, at_three)
        lists.append(len(members))
        if proposed:
            continue
        if len(members) == 1:
            kind = "one item"
        elif len(members) == 2:
            kind = "two items"
        elif covered(records_of, at_two):
            kind = "proposed with 2"
        else:
            kind = "not siblings alike"
        unproposed[kind].append(members)
    two_item_lists = [[truth[i] for i in members] for members in true_lists(records) if len(members) == 2]
    proposers = {}
    for name, propose in PROPOSERS.items():
        regions = propose(root)
        pairs = [
            [expand_record([nexteval_xpath(e) for e in region.record(k)], keys) for k in range(2)]
            for region in regions
            if region.size == 2
        ]
        proposers[name] = [len(regions), len(pairs), sum(1 for lst in two_item_lists if covered(lst, pairs))]
    base = score_records(shipped, truth).f1
    stake = {}
    for kind in CLASSES:
        added = [truth[i] for members in unproposed[kind] for i in members]
        stake[kind] = score_records(shipped + added, truth).f1 - base if added else 0.0
    report: dict[str, object] = {
        "f1": base,
        "list_sizes": lists,
        "unproposed": {kind: [len(m) for m in unproposed[kind]] for kind in CLASSES},
        "stake": stake,
        "true_records": len(truth),
        "candidates_two_item_true_two_item_covered": proposers,
    }
    if min_items == 2:
        report["f1_floor_two"] = score_records(
            [
                expand_record([nexteval_xpath(e) for e in region.record(k)], keys)
                for chosen in select_lists(rank_lists(root, find_record_regions(root, min_items=2)))
                for k in range(chosen.region.size)
                for region in (chosen.region,)
            ],
            truth,
        ).f1
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--min-items", type=int, default=3, choices=(2, 3))
    parser.add_argument("--propose", choices=sorted(PROPOSERS), default="3", help="candidates for --refit")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--refit", action="store_true", help="refit both models on the --propose candidates")
    args = parser.parse_args()
    html, truth_dir = args.data / "html", args.data / "groundtruth"
    if args.refit:
        fitted_pages = load_pages(html, truth_dir, args.limit, propose=PROPOSERS[args.propose])
        lines = [f"in-sample {score_with(fitted_pages, fit_models(fitted_pages)):.4f}"]
        lines += held_out_report(fitted_pages)
        print("\n".join(lines))
        if args.json:
            args.json.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return
    pages = {}
    for page_id in page_ids(html, truth_dir)[: args.limit]:
        records = json.loads((truth_dir / f"{page_id}.json").read_text(encoding="utf-8"))
        pages[page_id] = page_report((html / f"{page_id}.html").read_bytes(), records, args.min_items)
    sizes = Counter(size for page in pages.values() for size in page["list_sizes"])
    summary: dict[str, object] = {
        "pages": len(pages),
        "f1": float(np.mean([page["f1"] for page in pages.values()])),
        "true_lists": sum(sizes.values()),
        "true_lists_by_items": {
            "1": sizes[1],
            "2": sizes[2],
            "3+": sum(v for k, v in sizes.items() if k >= 3),
        },
        "unproposed_lists": {
            kind: sum(len(page["unproposed"][kind]) for page in pages.values()) for kind in CLASSES
        },
        "unproposed_records": {
            kind: sum(sum(page["unproposed"][kind]) for page in pages.values()) for kind in CLASSES
        },
        "pages_with_unproposed": {
            kind: sum(1 for page in pages.values() if page["unproposed"][kind]) for kind in CLASSES
        },
        "mean_f1_at_stake": {
            kind: float(np.mean([page["stake"][kind] for page in pages.values()])) for kind in CLASSES
        },
    }
    summary["candidates_two_item_true_two_item_covered"] = {
        name: [
            sum(page["candidates_two_item_true_two_item_covered"][name][i] for page in pages.values())
            for i in range(3)
        ]
        for name in PROPOSERS
    }
    if args.min_items == 2:
        summary["f1_floor_two"] = float(np.mean([page["f1_floor_two"] for page in pages.values()]))
        summary["pages_changed"] = {
            page_id: [round(page["f1"], 3), round(page["f1_floor_two"], 3)]
            for page_id, page in pages.items()
            if abs(page["f1_floor_two"] - page["f1"]) > 0.001
        }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "pages": pages}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
