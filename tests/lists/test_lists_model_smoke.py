"""One real call of the main-list chooser with the embedded model on a real page where the evidence is close.

A smoke test (the path runs end to end against the real model, its answer bound by the schema); the
capability figures live in BENCHMARKS.md, measured by ``scrapesmith bench nexteval --llm local``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.config import Settings
from scrapesmith.dom.parse import parse_html
from scrapesmith.lists.choose import choose_data_lists
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(1800)]  # a busy 2-core CPU: minutes per call
PAGE = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval" / "html" / "5.html"


@pytest.mark.skipif(not PAGE.is_file(), reason="shared NEXT-EVAL data not present")
def test_embedded_model_chooses_the_main_list_of_a_real_page() -> None:
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    decision = choose_data_lists(parse_html(PAGE.read_bytes()), resolve_llm("local", cache=False, ledger=ledger))
    assert len(ledger) == 2 == decision.calls  # the same options in two orders
    assert {entry.stage for entry in ledger.entries} == {"lists.choose_main_list"}
    assert decision.chosen is None or decision.chosen in range(len(decision.options))
    assert decision.lists, "a page always keeps at least one list"
