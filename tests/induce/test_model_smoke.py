"""One real run of the LLM path with the embedded model: a tiny page, CoT, one seed, a handful of calls.

This is a smoke test (the path runs end to end against a real model and yields a replayable spec); the
capability figures live in BENCHMARKS.md, measured by `scrapesmith bench swde`.
"""

from __future__ import annotations

import pytest

from scrapesmith.config import Settings
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.progressive import GenerationSettings
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.views import FieldRequest
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(1800)]  # a busy 2-core CPU: minutes per call

PAGE = (
    "<html><head><title>Night Train - Example Books</title></head><body><h1>Night Train</h1>"
    "<ul class='facts'><li><b>ISBN-13:</b> 9780316125581</li><li><b>Pages:</b> 212</li></ul></body></html>"
)


def test_embedded_model_induces_a_replayable_spec_on_a_tiny_page():
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    llm = resolve_llm("local", cache=False, ledger=ledger)
    spec = induce_scraper(
        [FieldRequest("isbn_13", "Please extract the isbn number of the book.")],
        [parse_for_replay(PAGE)],
        method="cot",
        llm=llm,
        settings=GenerationSettings(method="cot"),
    )
    assert 1 <= len(ledger) <= 4
    assert all(entry.stage.startswith("induce.") for entry in ledger.entries)
    assert spec.field("isbn_13").actions, spec.field("isbn_13").evidence
    other = PAGE.replace("9780316125581", "9781439184301").replace("Night Train", "Day Boat")
    assert CompiledSpec(spec).row(other) == {"isbn_13": "9781439184301"}
