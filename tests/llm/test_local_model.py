"""The embedded model for real: one local completion that must come back as schema-valid JSON.

``make test`` installs the weights first (the ``model`` target), so a missing model here is a setup
failure, reported with the command that fixes it — never a skip.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

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


EXIT_SCRIPT = """
import json
from scrapesmith.llm import ask_json, resolve_llm
schema = {"type": "object", "required": ["answer"],
          "properties": {"answer": {"enum": ['1.92"', '1.48"', '2.29"', "none"]}}}
question = 'Which is the depth of a camera 1.92" wide, 1.48" high and 2.29" deep?'
print(json.dumps(ask_json(resolve_llm("local", cache=False), question, schema, stage="smoke", max_tokens=24)))
"""


def test_a_model_call_on_quoted_options_ends_without_a_crash_or_a_traceback(installed_default) -> None:
    """Issue 45: options with inch marks once gave llama.cpp a grammar it could not parse (exit 139), and
    llama-cpp-python's clean-up at interpreter exit printed a traceback. One call, then a normal exit."""
    env = {key: value for key, value in os.environ.items() if key != "SCRAPESMITH_LLM"}
    run = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout)["answer"] in ('1.92"', '1.48"', '2.29"', "none")
    for noise in ("Traceback", "Exception ignored", "error parsing grammar"):
        assert noise not in run.stderr, run.stderr[-3000:]
