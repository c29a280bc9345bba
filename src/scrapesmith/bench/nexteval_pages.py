"""NEXT-EVAL pages as the list-evidence fit reads them: every candidate list, labelled (:mod:`.nexteval_fit`).

Every candidate list of every page (:func:`scrapesmith.dom.find_record_regions`, or another generator) is
ranked with its evidence features and labelled a data list when its records overlap the true records by a
mean best Jaccard index of at least :data:`LABEL_OVERLAP` (NEXT-EVAL's own overlap, :func:`overlap_matrix`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from scrapesmith.bench.nexteval import expand_record, nexteval_xpath, overlap_matrix, page_ids
from scrapesmith.bench.nexteval import text_map_keys as page_keys
from scrapesmith.dom import PageLayout, RankedList, RecordRegion, find_record_regions, parse_html, rank_lists

LABEL_OVERLAP = 0.5


@dataclass
class LabelledList:
    """One candidate list of a page with its evidence features and whether it is a true record list."""

    features: list[float]
    label: bool
    records: list[frozenset[str]]
    ranked: RankedList


@dataclass
class PageData:
    truth: list[frozenset[str]]
    candidates: list[LabelledList]


def load_pages(
    html_dir: Path,
    truth_dir: Path,
    limit: int | None = None,
    render: Callable[[etree._Element], PageLayout] | None = None,
    propose: Callable[[etree._Element], Sequence[RecordRegion]] = find_record_regions,
) -> list[PageData]:
    """Candidates of every page with their features, labels and records (as text-map key sets); with
    ``render``, each page is drawn once and its candidates carry layout evidence. ``propose`` is the
    candidate generator (another floor of items, or a filter on its runs, is scored by passing it)."""
    pages = []
    for page_id in page_ids(html_dir, truth_dir)[:limit]:
        root = parse_html((html_dir / f"{page_id}.html").read_bytes())
        layout = render(root) if render is not None else None
        keys = page_keys(root)
        truth_paths = json.loads((truth_dir / f"{page_id}.json").read_text(encoding="utf-8"))
        truth = [expand_record(record, keys) for record in truth_paths]
        candidates = []
        for ranked in rank_lists(root, propose(root), layout=layout):
            region = ranked.region
            records = [
                expand_record([nexteval_xpath(e) for e in region.record(k)], keys) for k in range(region.size)
            ]
            overlap = overlap_matrix(records, truth).max(axis=1).mean() if truth else 0.0
            candidates.append(
                LabelledList(ranked.evidence.features(), overlap >= LABEL_OVERLAP, records, ranked)
            )
        pages.append(PageData(truth, candidates))
    return pages
