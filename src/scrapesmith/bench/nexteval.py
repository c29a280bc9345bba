"""NEXT-EVAL record-extraction benchmark, scored with NEXT-EVAL's own definition.

NEXT-EVAL (wordbricks/next-eval) gives each page a list of records, each a list of absolute XPaths
(``/body[1]/…``). Scoring, as the reference implementation does it:

1. Every page gets a *text map*: the XPath of the parent element of every non-empty text node outside
   ``<script>``/``<style>``, written ``/body[1]/div[3]/…`` (no ``/html``, every step indexed).
2. Every record XPath (predicted or true) is normalised (strip a leading ``/html[1]``/``/html``, add
   ``[1]`` to unindexed steps) and expanded to the text-map keys under it, so a record becomes the set of
   text-bearing elements it covers.
3. The overlap of a predicted and a true record is the Jaccard index of those sets; records are matched
   one to one by the Hungarian method on cost ``1 - overlap``; precision = summed overlap / predicted
   records, recall = summed overlap / true records; both empty -> 1, one empty -> 0; averaged over pages.

The reference expands with a plain string prefix (``key.startsWith(path)``); since every normalised
step ends in ``]``, a prefix match is exactly "the element itself or a descendant", which is what
:func:`expand_record` computes.
"""

from __future__ import annotations

import bisect
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from lxml import etree
from scipy.optimize import linear_sum_assignment

from scrapesmith.bench.frame import BenchResult
from scrapesmith.dom import PageLayout, detect_lists, is_element, own_text, parse_html
from scrapesmith.errors import ScrapesmithError
from scrapesmith.lists import choose_data_lists
from scrapesmith.llm import LLM, Ledger

TEXT_EXCLUDED = frozenset({"script", "style"})
_INDEXED = re.compile(r"\[\d+\]$")


@dataclass
class PageScore:
    precision: float
    recall: float
    f1: float
    predicted: int
    truth: int


def normalize_xpath(xpath: str) -> str:
    """NEXT-EVAL's form: no leading ``/html[1]`` (or ``/html``), every step carries an index."""
    path = xpath
    if path.startswith("/html[1]"):
        path = path[len("/html[1]") :]
    elif path.startswith("/html"):
        path = path[len("/html") :]
    if not path:
        return path
    return "/".join(step if not step or _INDEXED.search(step) else f"{step}[1]" for step in path.split("/"))


def nexteval_xpath(element: etree._Element) -> str:
    """The element's absolute XPath in NEXT-EVAL's form (``/body[1]/div[3]``: no html step, every step
    indexed), the form its ground truth is keyed by; ``dom.absolute_xpath`` is the one to select with."""
    return normalize_xpath(element.getroottree().getpath(element))


def text_map_keys(root: etree._Element) -> list[str]:
    """Sorted XPaths of the elements that directly hold non-empty text outside scripts and styles."""
    keys = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if own_text(node):
            keys.add(nexteval_xpath(node))
        stack.extend(child for child in node if is_element(child) and child.tag not in TEXT_EXCLUDED)
    return sorted(keys)


def expand_record(xpaths: Sequence[str], keys: list[str]) -> frozenset[str]:
    """The text-map keys a record covers (keys are sorted, so each prefix is one contiguous range)."""
    covered: set[str] = set()
    for xpath in xpaths:
        path = normalize_xpath(xpath)
        start = bisect.bisect_left(keys, path)
        for key in keys[start:]:
            if not key.startswith(path):
                break
            covered.add(key)
    return frozenset(covered)


def overlap_matrix(predicted: list[frozenset[str]], truth: list[frozenset[str]]) -> np.ndarray:
    """Jaccard index of every predicted/true pair, computed through a key -> true-record index."""
    owners: dict[str, list[int]] = {}
    for index, record in enumerate(truth):
        for key in record:
            owners.setdefault(key, []).append(index)
    matrix = np.zeros((len(predicted), len(truth)))
    for row, record in enumerate(predicted):
        for key in record:
            for column in owners.get(key, ()):
                matrix[row, column] += 1
        for column in np.nonzero(matrix[row])[0]:
            shared = matrix[row, column]
            matrix[row, column] = shared / (len(record) + len(truth[column]) - shared)
    return matrix


def score_records(predicted: list[frozenset[str]], truth: list[frozenset[str]]) -> PageScore:
    """Precision, recall and F1 of one page, exactly as NEXT-EVAL defines them."""
    if not predicted and not truth:
        return PageScore(1.0, 1.0, 1.0, 0, 0)
    if not predicted or not truth:
        return PageScore(0.0, 0.0, 0.0, len(predicted), len(truth))
    overlaps = overlap_matrix(predicted, truth)
    rows, columns = linear_sum_assignment(1.0 - overlaps)
    total = float(overlaps[rows, columns].sum())
    precision, recall = total / len(predicted), total / len(truth)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return PageScore(precision, recall, f1, len(predicted), len(truth))


Detector = Callable[[etree._Element], list[list[str]]]


def detect_records(root: etree._Element, layout: PageLayout | None = None) -> list[list[str]]:
    """The heuristic detector: the page's main lists (see :func:`detect_lists`), each item one record."""
    return [
        [nexteval_xpath(element) for element in region.record(index)]
        for region in detect_lists(root, layout=layout)
        for index in range(region.size)
    ]


class RenderingDetector:
    """The heuristic detector with layout evidence: each page is drawn once by ``render`` (a function
    from the parsed page to its :class:`PageLayout`), and the last layout is kept for the page's record
    (seconds, or why the page fell back to DOM evidence); ``from_cache`` says whether ``render`` read it
    from a :class:`~scrapesmith.bench.layout_cache.LayoutCache` instead of drawing it."""

    __name__ = "detect_records_rendered"

    def __init__(self, render: Callable[[etree._Element], PageLayout]) -> None:
        self.render = render
        self.last: PageLayout | None = None
        self.from_cache = False

    def __call__(self, root: etree._Element) -> list[list[str]]:
        self.last = self.render(root)
        self.from_cache = bool(getattr(self.render, "last_cached", False))
        return detect_records(root, self.last)


def model_detector(llm: LLM, render: Callable[[etree._Element], PageLayout] | None = None) -> Detector:
    """Evidence ranks the candidate lists (with each page's layout when ``render`` draws it); ``llm``
    chooses the main list where the best two are close (see :mod:`scrapesmith.lists.choose`)."""

    def detect_with_model(root: etree._Element) -> list[list[str]]:
        layout = render(root) if render is not None else None
        decision = choose_data_lists(root, llm, layout=layout)
        return [
            [nexteval_xpath(element) for element in candidate.region.record(index)]
            for candidate in decision.lists
            for index in range(candidate.region.size)
        ]

    return detect_with_model


def page_ids(html_dir: Path, truth_dir: Path, only: Sequence[str] | None = None) -> list[str]:
    """The pages with both HTML and ground truth, in numeric order (only those named in ``only``)."""
    if not html_dir.is_dir() or not truth_dir.is_dir():
        raise ScrapesmithError(f"NEXT-EVAL directories not found: {html_dir}, {truth_dir}")
    ids = sorted(
        (p.stem for p in truth_dir.glob("*.json") if (html_dir / f"{p.stem}.html").exists()),
        key=lambda stem: (len(stem), stem),
    )
    if only is not None:
        missing = sorted(set(only) - set(ids))
        if missing:
            raise ScrapesmithError(f"no such NEXT-EVAL pages: {', '.join(missing)}")
        ids = [page for page in ids if page in set(only)]
    if not ids:
        raise ScrapesmithError(f"no pages with ground truth in {html_dir} / {truth_dir}")
    return ids


def evaluate_page(
    html: bytes, truth_records: list[list[str]], detector: Detector = detect_records
) -> PageScore:
    """Detect records on one page and score them against ``truth_records``."""
    return score_page(parse_html(html), truth_records, detector)


def score_page(root: etree._Element, truth_records: list[list[str]], detector: Detector = detect_records) -> PageScore:
    """Detect records on a parsed page (as it is, or redrawn by a mutation) and score them."""
    keys = text_map_keys(root)
    predicted = [expand_record(record, keys) for record in detector(root)]
    truth = [expand_record(record, keys) for record in truth_records]
    return score_records(predicted, truth)


def run_nexteval(
    html_dir: Path,
    truth_dir: Path,
    limit: int | None = None,
    detector: Detector = detect_records,
    progress: Callable[[str], None] | None = None,
    ledger: Ledger | None = None,
    only: Sequence[str] | None = None,
) -> BenchResult:
    """Score ``detector`` on every page with ground truth; per-page failures are recorded, not fatal.

    With a ``ledger`` (the one the detector's model writes to), each page records its model calls and
    tokens.
    """
    ids = page_ids(html_dir, truth_dir, only)[:limit]
    cases = []
    started = time.perf_counter()
    for page_id in ids:
        case: dict[str, object] = {"page": page_id}
        before = ledger.totals() if ledger is not None else None
        try:
            truth = json.loads((truth_dir / f"{page_id}.json").read_text(encoding="utf-8"))
            score = evaluate_page((html_dir / f"{page_id}.html").read_bytes(), truth, detector)
            case.update(
                precision=score.precision,
                recall=score.recall,
                f1=score.f1,
                predicted=score.predicted,
                truth=score.truth,
            )
        except (OSError, ValueError) as exc:
            case.update(precision=0.0, recall=0.0, f1=0.0, error=str(exc))
        layout = getattr(detector, "last", None)
        if isinstance(layout, PageLayout):
            case.update(
                rendered=layout.rendered,
                render_seconds=round(layout.seconds, 3),
                layout_from_cache=bool(getattr(detector, "from_cache", False)),
            )
            if not layout.rendered:
                case["layout_note"] = layout.note
        if ledger is not None and before is not None:
            after = ledger.totals()
            case.update(
                llm_calls=after.calls - before.calls,
                input_tokens=after.input_tokens - before.input_tokens,
                output_tokens=after.output_tokens - before.output_tokens,
                model_seconds=round(after.latency - before.latency, 2),
            )
        cases.append(case)
        if progress:
            progress(page_id)
    seconds = time.perf_counter() - started
    return BenchResult(
        name="nexteval",
        summary=_summary(cases, seconds),
        cases=cases,
        params={
            "html": str(html_dir),
            "groundtruth": str(truth_dir),
            "pages": len(ids),
            "detector": getattr(detector, "__name__", str(detector)),
        },
    )


def _summary(cases: list[dict[str, object]], seconds: float) -> dict[str, float | int | str]:
    def mean(key: str) -> float:
        values = [float(case[key]) for case in cases if key in case]  # type: ignore[arg-type]
        return sum(values) / len(values) if values else 0.0

    def total(key: str) -> float:
        return sum(float(case.get(key, 0)) for case in cases)  # type: ignore[arg-type]

    pages = max(len(cases), 1)
    rendered = [case for case in cases if case.get("rendered")]
    return {
        "pages": len(cases),
        "precision": mean("precision"),
        "recall": mean("recall"),
        "f1": mean("f1"),
        "pages_per_s": len(cases) / max(seconds, 1e-9),
        "seconds": seconds,
        "errors": sum(1 for case in cases if "error" in case),
        "llm_calls": int(total("llm_calls")),
        "pages_with_calls": sum(1 for case in cases if float(case.get("llm_calls", 0)) > 0),  # type: ignore[arg-type]
        "calls_per_page": total("llm_calls") / pages,
        "input_tokens_per_page": total("input_tokens") / pages,
        "output_tokens_per_page": total("output_tokens") / pages,
        "model_seconds": total("model_seconds"),
        "pages_rendered": len(rendered),
        "pages_not_rendered": sum(1 for case in cases if case.get("rendered") is False),
        "render_seconds_per_page": total("render_seconds") / max(len(rendered), 1),
        "pages_layout_from_cache": sum(1 for case in cases if case.get("layout_from_cache")),
    }
