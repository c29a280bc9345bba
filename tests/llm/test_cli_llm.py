"""``scrapesmith llm ask / info / ledger`` run as real processes against the 127.0.0.1 chat server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.dom.tokens import estimate_tokens
from scrapesmith.llm import GrammarError, Ledger, PriceTable, attribute_to, wrap_llm
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import ChatMessage, LLMRequest

from .conftest import ChatServer, Step


def scrapesmith(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], capture_output=True, text=True,
                          env=env, timeout=60, check=False)


def cli_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SCRAPESMITH_"))}
    return env | {"SCRAPESMITH_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200"} | extra


def test_ask_prints_the_reply_and_a_ledger_line(chat_server: ChatServer, tmp_path: Path) -> None:
    chat_server.queue(Step(text="Tokyo", usage=(12, 2)))
    env = cli_env(tmp_path, OPENAI_BASE_URL=chat_server.url)
    result = scrapesmith("llm", "ask", "Capital of Japan?", "--llm", "openai:test-model", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Tokyo\n"
    assert "openai:test-model: 1 call(s), 12 in / 2 out tokens" in result.stderr


def test_ask_with_schema_prints_validated_json_and_caches(chat_server: ChatServer, tmp_path: Path) -> None:
    schema = tmp_path / "city.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"city": {"type": "string"}},
                                  "required": ["city"]}))
    chat_server.queue(Step(text='```json\n{"city": "Tokyo",}\n```'))
    env = cli_env(tmp_path, OPENAI_BASE_URL=chat_server.url, SCRAPESMITH_LLM="openai:test-model")
    first = scrapesmith("llm", "ask", "Capital of Japan?", "--schema", str(schema), env=env)
    second = scrapesmith("llm", "ask", "Capital of Japan?", "--schema", str(schema), env=env)
    assert json.loads(first.stdout) == json.loads(second.stdout) == {"city": "Tokyo"}
    assert "1 from cache" in second.stderr
    assert chat_server.hits == 1
    chat_server.queue(Step(text='{"city": "Tokyo"}'))
    third = scrapesmith("llm", "ask", "Capital of Japan?", "--schema", str(schema), "--no-cache", env=env)
    assert third.returncode == 0 and chat_server.hits == 2


def test_ask_with_no_model_fails_in_one_line(tmp_path: Path) -> None:
    result = scrapesmith("llm", "ask", "hi", "--llm", "none", env=cli_env(tmp_path))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "error: 'llm ask' needs a model; set SCRAPESMITH_LLM or pass --llm (e.g. local, openai:<model>)"
    ]


def test_ask_with_a_broken_schema_file_fails_in_one_line(chat_server: ChatServer, tmp_path: Path) -> None:
    schema = tmp_path / "bad.json"
    schema.write_text("{nope")
    env = cli_env(tmp_path, OPENAI_BASE_URL=chat_server.url)
    result = scrapesmith("llm", "ask", "hi", "--schema", str(schema), "--llm", "openai:m", env=env)
    assert result.returncode == 1 and "is not valid JSON" in result.stderr
    assert chat_server.hits == 0


def test_info_for_a_remote_model_never_prints_the_key(chat_server: ChatServer, tmp_path: Path) -> None:
    env = cli_env(tmp_path, OPENAI_BASE_URL=chat_server.url, OPENAI_API_KEY="sk-secret-123")
    result = scrapesmith("llm", "info", "--llm", "openai:test-model", env=env)
    assert result.returncode == 0, result.stderr
    assert "test-model" in result.stdout and chat_server.url in result.stdout
    assert "prompt tokens/s" in result.stdout and "generation tokens/s" in result.stdout
    assert "sk-secret-123" not in result.stdout + result.stderr
    assert chat_server.hits == 2


def test_info_for_none_says_heuristics(tmp_path: Path) -> None:
    result = scrapesmith("llm", "info", "--llm", "none", env=cli_env(tmp_path))
    assert result.returncode == 0 and "heuristic" in result.stdout


def test_ledger_prints_totals_per_stage_and_per_row(tmp_path: Path) -> None:
    ledger = Ledger(prices=PriceTable({}))
    llm = wrap_llm(ScriptedLLM(lambda request: "answer text"), cache=False, ledger=ledger)
    for row in ("1", "2"):
        with attribute_to(row):
            llm.complete(LLMRequest(messages=[ChatMessage(role="user", content="which words " * 10)], stage="lists.answer"))
    llm.complete(LLMRequest(messages=[ChatMessage(role="user", content="plan")], stage="collect.plan"))
    ledger.save(tmp_path / "run" / "ledger.json")
    result = scrapesmith("llm", "ledger", str(tmp_path / "run"), env=cli_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "per stage" in result.stdout and "per output row" in result.stdout
    assert "lists.answer" in result.stdout and "collect.plan" in result.stdout
    assert "2 attributed row(s)" in result.stdout
    as_json = json.loads(scrapesmith("llm", "ledger", str(tmp_path / "run" / "ledger.json"), "--json",
                                     env=cli_env(tmp_path)).stdout)
    assert as_json["totals"]["calls"] == 3
    assert as_json["by_stage"]["lists.answer"]["input_tokens"] == 2 * estimate_tokens("which words " * 10)
    assert set(as_json["by_row"]) == {"1", "2"}


def test_ledger_shows_requests_the_model_was_never_asked(tmp_path: Path) -> None:
    """A schema whose grammar does not parse (issue 45) is an entry with its error, not a call."""
    def unusable(request: LLMRequest) -> str:
        raise GrammarError("the JSON schema's grammar is unusable: parse: error parsing grammar")

    ledger = Ledger(prices=PriceTable({}))
    llm = wrap_llm(ScriptedLLM(unusable), cache=False, ledger=ledger)
    with pytest.raises(GrammarError):
        llm.complete(LLMRequest(messages=[ChatMessage(role="user", content="pick")], stage="induce.choose"))
    ledger.save(tmp_path / "run" / "ledger.json")
    result = scrapesmith("llm", "ledger", str(tmp_path / "run"), env=cli_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "0 (+1 not asked)" in result.stdout
    loaded = Ledger.load(tmp_path / "run")
    assert "error parsing grammar" in loaded.entries[0].error and loaded.totals().errors == 1


def test_ledger_of_a_missing_run_fails_in_one_line(tmp_path: Path) -> None:
    result = scrapesmith("llm", "ledger", str(tmp_path / "nothing"), env=cli_env(tmp_path))
    assert result.returncode == 1 and result.stderr.startswith("error: no ledger at")
