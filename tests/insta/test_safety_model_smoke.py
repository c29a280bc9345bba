"""One real call of the safety filter on the embedded model: the path runs and the reply fits the schema.

A smoke test, not a capability claim: the figures come from `scrapesmith bench insta-safety --llm local`.
"""

from __future__ import annotations

import pytest

from scrapesmith.config import Settings
from scrapesmith.insta.safety import SafetyFilter
from scrapesmith.llm import Ledger, resolve_llm
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = [pytest.mark.model, pytest.mark.timeout(900)]


def test_embedded_model_describes_a_site_for_the_rules():
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(f"the embedded {model.size} model is not installed: run 'make model'")
    ledger = Ledger()
    verdict = SafetyFilter(resolve_llm("local", cache=False, ledger=ledger)).classify("oceanario.pt")
    assert 1 <= len(ledger) <= 4 and all(entry.stage == "insta.safety" for entry in ledger.entries)
    assert verdict.decided_by == "model" and verdict.description is not None and verdict.description.what
