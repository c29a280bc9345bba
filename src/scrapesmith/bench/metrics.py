"""The executability metric of AutoScraper, computed as its public SWDE evaluation does.

Per page, predicted and true values are compared as sets after normalisation (HTML entities unescaped,
*all* whitespace removed, case kept). TP/FP/FN are summed over the test pages of one site-attribute case;
each case is then classified, in order, on values rounded to 4 places: Correct (f1 = 1), Prec (p = 1,
r != 0), Recall (r = 1, p != 0), Unex. (r = 0), Over. (p = 0), Else. Macro P/R/F1 are means over cases.

The lenient variant also strips leading/trailing separators from both sides, because SWDE ground truth
carries values such as ``: 9780316125581`` that a clean extractor would not produce.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

_WS = re.compile(r"\s+")
_EPS = 1e-12
LENIENT_SEPARATORS = ":;,|/-–—•·*>»()[]."
CATEGORIES = ("correct", "prec", "recall", "unex", "over", "else")


def normalize_strict(text: str) -> str:
    return _WS.sub("", html.unescape(text))


def normalize_lenient(text: str) -> str:
    return normalize_strict(text).strip(LENIENT_SEPARATORS)


def value_set(values: Iterable[str], lenient: bool = False) -> set[str]:
    normalize = normalize_lenient if lenient else normalize_strict
    return {n for n in (normalize(v) for v in values if v) if n}


@dataclass
class CaseScore:
    """TP/FP/FN of one site-attribute case, summed over its test pages."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add_page(self, predicted: Iterable[str], truth: Iterable[str], lenient: bool = False) -> None:
        pred, gold = value_set(predicted, lenient), value_set(truth, lenient)
        self.tp += len(pred & gold)
        self.fp += len(pred - gold)
        self.fn += len(gold - pred)

    @property
    def precision(self) -> float:
        return (self.tp + _EPS) / (self.tp + self.fp + _EPS)

    @property
    def recall(self) -> float:
        return (self.tp + _EPS) / (self.tp + self.fn + _EPS)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r + _EPS)

    @property
    def category(self) -> str:
        return classify(self.precision, self.recall, self.f1)

    def as_dict(self) -> dict[str, float | int | str]:
        return {
            **asdict(self),
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "category": self.category,
        }


def classify(precision: float, recall: float, f1: float) -> str:
    """The executability category, tested in the evaluation's order on values rounded to 4 places."""
    p, r, f = round(precision, 4), round(recall, 4), round(f1, 4)
    if f == 1.0:
        return "correct"
    if p == 1.0 and r != 0.0:
        return "prec"
    if r == 1.0 and p != 0.0:
        return "recall"
    if r == 0.0:
        return "unex"
    if p == 0.0:
        return "over"
    return "else"


def summarize(cases: list[CaseScore]) -> dict[str, float | int]:
    """Category ratios and macro P/R/F1 over cases (unrounded p/r/f1, as the evaluation averages them)."""
    total = len(cases)
    summary: dict[str, float | int] = {"cases": total}
    for name in CATEGORIES:
        summary[f"{name}_ratio"] = round(sum(c.category == name for c in cases) / total, 4) if total else 0.0
    for name in ("precision", "recall", "f1"):
        summary[name] = round(sum(getattr(c, name) for c in cases) / total, 4) if total else 0.0
    return summary
