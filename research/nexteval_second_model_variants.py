"""Which comparisons the second list-evidence model should use (issue 14, NEXT-EVAL pages 1-100).

The second model (:func:`scrapesmith.dom.list_evidence.secondary_features`) judges each other list of a
page against its main list. This script refits both evidence models with variants of those comparisons,
and with other regularisation, and prints for each the F1 on the fitted pages and on pages the weights
were not fitted on (two halves, alternate pages, 5- and 10-fold), as ``scrapesmith bench nexteval --fit``
does for the shipped comparisons. A variant is worth shipping only if no held-out split gets worse.
No model. Run from the repository root:

    python research/nexteval_second_model_variants.py
    python research/nexteval_second_model_variants.py --variants shipped,-digit --c 0.03

Journal: docs/journal/benchmarks.md, "Issue 14, session 2026-11-25 night: the model on all 100 pages, what it can decide, one more comparison".
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import scrapesmith.bench.nexteval_fit as fit
from scrapesmith.dom.list_evidence import RankedList, signature
from scrapesmith.dom.list_selection import secondary_features

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "next-eval"
Extra = Callable[[RankedList, RankedList], list[float]]


def extras(pages: list[fit.PageData]) -> dict[str, Extra]:
    """Comparisons that could be added (a name each); ``family`` counts the page's lists built alike."""
    family = {}
    for page in pages:
        counts = Counter(signature(c.ranked.region) for c in page.candidates)
        family.update({id(c.ranked.region): counts[signature(c.ranked.region)] for c in page.candidates})
    return {
        "link": lambda c, m: [c.evidence.link_share - m.evidence.link_share],
        "images-headings": lambda c, m: [c.evidence.image_share - m.evidence.image_share,
                                         c.evidence.heading_share - m.evidence.heading_share],
        "family": lambda c, m: [math.log(family.get(id(c.region), 1))],
        "main-region": lambda c, m: [float(c.evidence.in_main)],
        "distinct": lambda c, m: [c.evidence.distinct_share - m.evidence.distinct_share],
    }


def variant(name: str, added: dict[str, Extra]) -> Callable[[RankedList, RankedList], list[float]]:
    """``shipped``; ``-digit`` (the shipped comparisons without the digit share, the last one); ``+X`` (the
    shipped ones plus extra ``X``, several joined by ``+``)."""
    if name == "shipped":
        return secondary_features
    if name == "-digit":
        return lambda c, m: secondary_features(c, m)[:-1]
    parts = [added[part] for part in name.lstrip("+").split("+")]
    return lambda c, m: secondary_features(c, m) + [x for part in parts for x in part(c, m)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--html", type=Path, default=DATA / "html")
    parser.add_argument("--groundtruth", type=Path, default=DATA / "groundtruth")
    parser.add_argument("--variants", default="shipped,-digit,+link,+images-headings,+family,+main-region,"
                        "+distinct,+link+family")
    parser.add_argument("--c", default="0.03", help="comma-separated regularisation values (shipped: 0.03)")
    args = parser.parse_args()
    pages = fit.load_pages(args.html, args.groundtruth)
    added = extras(pages)
    for name in args.variants.split(","):
        fit.secondary_features = variant(name, added)  # nexteval_fit fits and judges with this
        for c in (float(value) for value in args.c.split(",")):
            first, second = fit.two_fold(pages, c)
            print(f"{name:22} C {c:<5} fitted {fit.score_with(pages, fit.fit_models(pages, c)):.4f}  halves "
                  f"{first:.4f} / {second:.4f}  alternate {fit.k_fold(pages, 2, c):.4f}  5-fold "
                  f"{fit.k_fold(pages, 5, c):.4f}  10-fold {fit.k_fold(pages, 10, c):.4f}", flush=True)


if __name__ == "__main__":
    main()
