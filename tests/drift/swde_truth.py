"""SWDE's own ground truth, to score what a healed spec reads on mutated pages (never the forged spec's
own output: a heal that read what the forged spec read wrongly would pass against that)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from scrapesmith.bench.metrics import CaseScore
from scrapesmith.bench.swde import load_groundtruth

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


def swde_truth(site_key: str, page_ids: Sequence[str], names: Sequence[str]) -> list[dict[str, list[str]]]:
    """SWDE's truth for ``page_ids`` (``0003``…) of ``site_key`` (``auto-msn``): one row of values per page."""
    vertical = site_key.split("-", 1)[0]
    files = {name: load_groundtruth(SWDE / "groundtruth" / vertical / f"{site_key}-{name}.txt") for name in names}
    return [{name: files[name].get(page_id, []) for name in names} for page_id in page_ids]


def truth_f1(rows: Sequence[dict], truth: Sequence[dict[str, list[str]]], name: str,
             written: Callable[[str], str] = lambda value: value) -> float:
    """F1 of a field's values against SWDE's truth over the pages, scored as ``bench swde`` scores them
    (lenient: whitespace and stray separators aside; rounded to 4 places as the benchmark reports it);
    ``written`` rewrites a true value the way the page or the field writes it (``formats`` writes amounts
    another way)."""
    score = CaseScore()
    for row, gold in zip(rows, truth, strict=True):
        cell = row[name]
        values = [] if cell is None else [cell] if isinstance(cell, str) else list(cell)
        score.add_page(values, [written(value) for value in gold[name]], lenient=True)
    return round(score.f1, 4)
