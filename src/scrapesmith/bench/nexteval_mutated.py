"""``bench nexteval --mutate``: NEXT-EVAL pages redrawn in another template, scored with the shipped models.

Every estimate from NEXT-EVAL pages 1-100 splits the same pages, so none shows what a new site's markup
does to the detector; the kept-aside pages (another set of sites) scored 0.776 against 0.8446. As for
field scrapers (``bench swde --mutate``), :mod:`scrapesmith.dom.mutate` redraws each page in another
template (classes, wrappers, order, headings, tables…) and the detector runs on it unchanged: its
constants stand for a detector fitted on other templates.

NEXT-EVAL's truth is a list of XPaths, and its metric compares records by the text-bearing elements
under them, so a redrawn page needs its truth redrawn too. A mutation works on the parsed page in place,
so each true element is found before it and its path read again after it: the truth follows its
elements wherever the template moves them. A true element the mutation removes (``tables`` replaces
rows and cells by new elements) can no longer be matched; such paths are counted per kind
(``truth_paths_lost``) and that kind is not a fair measure of the detector.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from scrapesmith.bench.frame import BenchResult
from scrapesmith.bench.nexteval import (
    Detector,
    detect_records,
    nexteval_xpath,
    normalize_xpath,
    page_ids,
    score_page,
)
from scrapesmith.dom import TEMPLATE_MUTATIONS, parse_html

UNMUTATED = "none"
LOST = "/lost[1]"
"""The path a true element gets once the mutation removed it: it covers no text-map key."""
LOW_F1 = 0.5


@dataclass
class MutatedPage:
    """A page redrawn by a mutation, its truth in the redrawn page's paths, and what of the truth was lost."""

    root: etree._Element
    truth: list[list[str]]
    paths_lost: int
    paths_unresolved: int


TrueElements = list[list[etree._Element | None]]


def locate_truth(root: etree._Element, truth_records: list[list[str]]) -> TrueElements:
    """The element each true path names on the page as it is (``None`` where it names none)."""
    by_path = {nexteval_xpath(element): element for element in root.iter(etree.Element)}
    return [[by_path.get(normalize_xpath(xpath)) for xpath in record] for record in truth_records]


def truth_paths(root: etree._Element, found: TrueElements) -> tuple[list[list[str]], int]:
    """The true elements' paths on the page now, and how many of them are no longer on it (lost)."""
    lost = 0

    def path_after(element: etree._Element | None) -> str:
        nonlocal lost
        if element is None:
            return LOST
        if element is not root and root not in element.iterancestors():  # lxml keeps a removed one's document
            lost += 1
            return LOST
        return nexteval_xpath(element)

    return [[path_after(element) for element in record] for record in found], lost


def mutated_page(html: bytes, truth_records: list[list[str]], kind: str, seed: int) -> MutatedPage:
    """Parse ``html``, find each true element, redraw the page with ``kind`` (``none``: as it is) under
    ``seed``, and read each true element's path again. A path that named no element before keeps
    covering nothing (``paths_unresolved``); an element the mutation removed is lost (``paths_lost``)."""
    root = parse_html(html)
    found = locate_truth(root, truth_records)
    if kind != UNMUTATED:
        TEMPLATE_MUTATIONS[kind](root, seed)
    truth, lost = truth_paths(root, found)
    unresolved = sum(element is None for record in found for element in record)
    return MutatedPage(root, truth, lost, unresolved)


def kinds_summary(cases: Sequence[dict[str, object]]) -> dict[str, float | int | str]:
    """Per kind (over all its seeds): mean precision, recall, F1, pages under 0.5 and true paths lost."""
    summary: dict[str, float | int | str] = {}
    for kind in dict.fromkeys(str(case["mutation"]) for case in cases):
        mine = [case for case in cases if case["mutation"] == kind]
        for key in ("precision", "recall", "f1"):
            summary[f"{kind}_{key}"] = sum(float(case[key]) for case in mine) / len(mine)  # type: ignore[arg-type]
        summary[f"{kind}_pages"] = len(mine)
        summary[f"{kind}_pages_low"] = sum(1 for case in mine if float(case["f1"]) < LOW_F1)  # type: ignore[arg-type]
        summary[f"{kind}_truth_paths_lost"] = sum(int(case["truth_paths_lost"]) for case in mine)  # type: ignore[call-overload]
        summary[f"{kind}_errors"] = sum(1 for case in mine if "error" in case)
    return summary


def run_mutated_nexteval(
    html_dir: Path,
    truth_dir: Path,
    kinds: Sequence[str],
    mutation_seeds: Sequence[int],
    limit: int | None = None,
    only: Sequence[str] | None = None,
    detector: Detector = detect_records,
    progress: Callable[[str], None] | None = None,
) -> BenchResult:
    """Score ``detector`` on every page as it is and under every (kind, seed) draw; a page that fails is
    recorded with its error and scored 0, and the run goes on."""
    ids = page_ids(html_dir, truth_dir, only)[:limit]
    draws = [(UNMUTATED, 0), *((kind, seed) for kind in kinds for seed in mutation_seeds)]
    cases: list[dict[str, object]] = []
    started = time.perf_counter()
    for kind, seed in draws:
        for page_id in ids:
            case: dict[str, object] = {"mutation": kind, "mutation_seed": seed, "page": page_id}
            try:
                truth = json.loads((truth_dir / f"{page_id}.json").read_text(encoding="utf-8"))
                page = mutated_page((html_dir / f"{page_id}.html").read_bytes(), truth, kind, seed)
                score = score_page(page.root, page.truth, detector)
                case.update(precision=score.precision, recall=score.recall, f1=score.f1,
                            predicted=score.predicted, truth=score.truth, truth_paths_lost=page.paths_lost,
                            truth_paths_unresolved=page.paths_unresolved)
            except (OSError, ValueError) as exc:
                case.update(precision=0.0, recall=0.0, f1=0.0, truth_paths_lost=0, error=str(exc))
            cases.append(case)
            if progress:
                progress(f"{kind} {seed} {page_id}")
    summary = kinds_summary(cases)
    summary["seconds"] = time.perf_counter() - started
    return BenchResult(
        name="nexteval-mutated",
        summary=summary,
        cases=cases,
        params={"html": str(html_dir), "groundtruth": str(truth_dir), "pages": len(ids), "kinds": list(kinds),
                "mutation_seeds": list(mutation_seeds), "detector": getattr(detector, "__name__", str(detector))},
    )
