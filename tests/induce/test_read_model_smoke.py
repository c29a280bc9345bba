"""One real run of ``--method read`` with the embedded model on saved real SWDE pages (3 seeds of one site).

A smoke test: the path runs end to end against a real model within its call bound, every span it keeps is
printed on the page it was read off, every field says what happened to its read, and the spec replays on a
page it was not made on. The capability figures live in BENCHMARKS.md (``bench swde --method read``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.bench.swde import SwdeSite, read_page, requests_for
from scrapesmith.config import Settings
from scrapesmith.induce import CompiledSpec, induce_scraper, parse_for_replay
from scrapesmith.induce.read import CALLS_AT_MOST, READ_PATHS, on_page, page_printed, read_path
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(1800)]  # a busy 2-core CPU: minutes per call

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
SITE = ("nbaplayer", "nbaplayer-espn")


@pytest.mark.skipif(not (SWDE / SITE[0] / SITE[1]).is_dir(), reason="SWDE development data not present")
def test_the_embedded_model_reads_spans_off_a_real_page_and_the_engine_forges_them():
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    site = SwdeSite(SITE[0], SITE[1].split("-", 1)[1], SWDE / SITE[0] / SITE[1])
    paths = site.page_paths()
    trees = [parse_for_replay(read_page(p)) for p in paths[:3]]
    requests = requests_for(site)
    ledger = Ledger()
    spec = induce_scraper(requests, trees, method="read", llm=resolve_llm("local", cache=False, ledger=ledger))
    assert 1 <= len(ledger) <= CALLS_AT_MOST
    assert all(entry.stage == "induce.read" for entry in ledger.entries)
    printed = [page_printed(tree) for tree in trees[:2]]
    for field in spec.fields:
        if field.evidence.startswith("read '"):
            span = field.evidence.split("'")[1]
            page = int(field.evidence.split(" on seed ")[1].split(",")[0].split(";")[0]) - 1
            assert on_page(span, printed[page]), field.evidence
            assert read_path(field.evidence) in set(READ_PATHS.values()) - {"no span"}, field.evidence
            assert not field.actions or field.confidence is not None
        else:
            assert field.evidence.startswith("no read span ("), field.evidence
    assert any(field.evidence.startswith("read '") for field in spec.fields), [f.evidence for f in spec.fields]
    row = CompiledSpec(spec).row(read_page(paths[5]))
    assert set(row) == {r.name for r in requests}
