"""Drift: does a forged program's output still look as it did when it was forged?

A program (a scraper spec, a list program) keeps an :class:`OutputProfile` of its output on its seed
pages; a replay compares its own output with it (:func:`compare`) and names each column that changed, with
the evidence ("price: 0 of 40 filled, was 3 of 3"). No model, thresholds a person can read
(``service.py``). ``heal`` (in the capability that forged the program) mends what drifted.
"""

from scrapesmith.drift.service import (
           LENGTH_FACTOR,
           LENGTH_SLACK,
           KindOf,
           cell_text,
           compare,
           profile_column,
           profile_rows,
)
from scrapesmith.drift.views import ColumnProfile, Drift, DriftReport, OutputProfile

__all__ = ["LENGTH_FACTOR", "LENGTH_SLACK", "ColumnProfile", "Drift", "DriftReport", "KindOf",
           "OutputProfile", "cell_text", "compare", "profile_column", "profile_rows"]
