"""The embedded model for real: one local completion that must come back as schema-valid JSON.

``make test`` installs the weights first (the ``model`` target), so a missing model here is a setup
failure, reported with the command that fixes it — never a skip.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from scrapesmith.config import Settings
from scrapesmith.llm import Ledger, LocalLLM, ask_structured, effective_spec, resolve_llm, unwrap
from scrapesmith.llm.models import DEFAULT_SIZE, EMBEDDED_MODELS, is_installed

pytestmark = pytest.mark.model


class Capital(BaseModel):
    country: str
    capital: str


@pytest.fixture(scope="module")
def installed_default() -> None:
    model = EMBEDDED_MODELS[DEFAULT_SIZE]
    if not is_installed(model, Settings().cache_dir):
        pytest.fail(
            f"the embedded {model.size} model is not installed in {Settings().cache_dir}: "
            f"run 'make model' or 'scrapesmith llm install --size {model.size}'"
        )


def test_local_model_returns_schema_valid_json(installed_default, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCRAPESMITH_LLM", raising=False)
    ledger = Ledger()
    llm = resolve_llm("local", cache=False, ledger=ledger)
    assert isinstance(unwrap(llm), LocalLLM)
    answer = ask_structured(llm, "What is the capital of France?", Capital, stage="smoke", max_tokens=40)
    assert answer.capital.strip().lower() == "paris"
    entry = ledger.entries[-1]
    assert (entry.provider, entry.cost, entry.cached) == ("local", 0.0, False)
    assert entry.input_tokens > 20 and 0 < entry.output_tokens <= 40


def test_local_is_the_default_when_nothing_else_is_configured(installed_default, monkeypatch) -> None:
    for name in ("SCRAPESMITH_LLM", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert effective_spec() == "local"
