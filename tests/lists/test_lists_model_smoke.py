"""One real call of the list chooser with the embedded model on a real page where the evidence is split.

A smoke test (the path runs end to end against the real model, its answer bound by the schema); the
capability figures live in BENCHMARKS.md, measured by ``scrapesmith bench nexteval --llm local``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.config import Settings
from scrapesmith.dom.parse import parse_html
from scrapesmith.lists.choose import DOUBTFUL, SHORTLIST, choose_data_lists
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(1800)]  # a busy 2-core CPU: minutes per call
PAGE = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval" / "html" / "5.html"


@pytest.mark.skipif(not PAGE.is_file(), reason="shared NEXT-EVAL data not present")
def test_embedded_model_decides_the_doubtful_lists_of_a_real_page() -> None:
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    decision = choose_data_lists(parse_html(PAGE.read_bytes()), resolve_llm("local", cache=False, ledger=ledger))
    assert len(ledger) == 1 == decision.calls and ledger.entries[0].stage == "lists.choose_data_lists"
    assert set(decision.model_chose) <= set(range(SHORTLIST))
    assert decision.lists, "a page always keeps at least its likeliest list"
    assert all(c.probability >= DOUBTFUL for c in decision.lists)  # the model never revives a dismissed list
