"""``bench drift --demo``: scraper specs forged on the demo web's book sites, replayed on its layout versions.

The demo web draws the same records in every layout version (:func:`scrapesmith.sites.build_sites` with
``layout``), so a spec forged on version 0 meets each redesign with a known answer: the reference is the
spec's own output on version 0, as for SWDE (:mod:`scrapesmith.bench.drift`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrapesmith.bench.drift import forge_on, rows_of, run_case
from scrapesmith.dom.mutate import LAYOUT_VERSIONS
from scrapesmith.drift import compare
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.views import FieldRequest
from scrapesmith.sites import build_sites

SITES = ("bookshelf", "pagecraft")
FIELDS = [FieldRequest("title", "the title of the book"), FieldRequest("author", "the author(s) of the book"),
          FieldRequest("isbn_13", "the ISBN-13 of the book"), FieldRequest("publisher", "the publisher"),
          FieldRequest("price", "the sale price")]


def run_demo(seeds: int, progress: Callable[[str], None]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Cases (site × layout version) and the unchanged checks, one per site."""
    original = build_sites(7)
    layouts = {version: build_sites(7, version) for version in range(1, len(LAYOUT_VERSIONS) + 1)}
    cases, unchanged = [], []
    for name in SITES:
        paths = original.urls(name, kind="detail")
        texts = [original.respond(p).body.decode("utf-8") for p in paths]
        spec = forge_on(FIELDS, texts[:seeds], f"demo-{name}")
        reference = rows_of(spec, texts[seeds:])
        check = compare(spec.profile, reference, kind_of)
        unchanged.append({"site": f"demo-{name}", "pages": len(reference),
                          "evidence": [d.evidence for d in check.drifts]})
        for version, drawn in layouts.items():
            changed = [drawn.respond(p).body.decode("utf-8") for p in paths]
            cases.append(run_case(f"demo-{name}", spec, changed, reference, f"layout {version} "
                                  f"({LAYOUT_VERSIONS[version - 1]})", version, seeds))
        progress(f"demo-{name}: {sum(c['drifted'] for c in cases[-len(layouts):])} of {len(layouts)} layouts "
                 "drifted")
    return cases, unchanged
