"""The cost ledger: per-call records, totals per stage and per row, prices, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapesmith.llm import (
    ChatMessage,
    Ledger,
    LLMError,
    LLMRequest,
    OpenAICompatibleLLM,
    PriceTable,
    ResponseCache,
    attribute_to,
    current_ledger,
    use_ledger,
    wrap_llm,
)
from scrapesmith.llm.scripted import ScriptedLLM

from .conftest import ChatServer, Step

PRICES = PriceTable({"test-model": (1.0, 2.0)})  # dollars per million tokens


def request(text: str, stage: str) -> LLMRequest:
    return LLMRequest(messages=[ChatMessage(role="user", content=text)], stage=stage)


def remote(server: ChatServer) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM("test-model", base_url=server.url, api_key="k", timeout=5, max_retries=0)


def test_totals_per_stage_count_tokens_cost_and_cache_hits(chat_server: ChatServer, tmp_path: Path) -> None:
    chat_server.default = Step(text="x", usage=(1000, 500))
    ledger = Ledger(prices=PRICES)
    llm = wrap_llm(remote(chat_server), cache=ResponseCache(tmp_path / "c.sqlite3"), ledger=ledger)
    llm.complete(request("a", "induce.top_down"))
    llm.complete(request("b", "induce.top_down"))
    llm.complete(request("a", "lists.policy"))  # same question: answered by the cache
    totals = ledger.totals()
    assert (totals.calls, totals.cache_hits, totals.input_tokens, totals.output_tokens) == (3, 1, 3000, 1500)
    assert totals.cost == pytest.approx(2 * (1000 * 1.0 + 500 * 2.0) / 1e6)
    stages = ledger.by_stage()
    assert stages["induce.top_down"].calls == 2 and stages["induce.top_down"].cost == pytest.approx(0.004)
    assert stages["lists.policy"].cache_hits == 1 and stages["lists.policy"].cost == 0.0
    assert chat_server.hits == 2


def test_local_and_scripted_calls_cost_nothing() -> None:
    assert PRICES.cost("local", "qwen", 10**6, 10**6) == 0.0
    ledger = Ledger(prices=PRICES)
    wrap_llm(ScriptedLLM(lambda r: "ok"), cache=False, ledger=ledger).complete(request("q", "s"))
    assert ledger.totals().cost == 0.0 and ledger.totals().unpriced_calls == 0


def test_unknown_remote_model_is_flagged_unpriced() -> None:
    ledger = Ledger(prices=PriceTable({}))
    wrap_llm(ScriptedLLM(lambda r: "ok", name="openai:mystery"), cache=False, ledger=ledger).complete(request("q", "s"))
    assert ledger.totals().unpriced_calls == 1


def test_price_lookup_matches_dated_snapshots_by_prefix() -> None:
    table = PriceTable({"gpt-4o": (2.5, 10.0), "gpt-4o-mini": (0.15, 0.6)})
    assert table.lookup("gpt-4o-mini-2024-07-18") == (0.15, 0.6)
    assert table.lookup("gpt-4o-2024-08-06") == (2.5, 10.0)


def test_price_table_file_from_environment(clean_env, tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"my-vllm-model": {"input": 0.5, "output": 1.5}}))
    clean_env.setenv("SCRAPESMITH_LLM_PRICES", str(prices))
    assert PriceTable.from_env().cost("openai", "my-vllm-model", 2_000_000, 0) == pytest.approx(1.0)
    prices.write_text("{not json")
    with pytest.raises(LLMError, match="price table"):
        PriceTable.from_env()


def test_calls_are_attributed_to_output_rows() -> None:
    ledger = Ledger(prices=PRICES)
    llm = wrap_llm(ScriptedLLM(lambda r: "answer"), cache=False, ledger=ledger)
    for row in ("row-1", "row-2"):
        with attribute_to(row):
            llm.complete(request(f"q {row}", "lists.answer_question"))
    llm.complete(request("outside", "lists.policy"))
    rows = ledger.by_row()
    assert sorted(rows) == ["row-1", "row-2"]
    assert rows["row-1"].calls == 1
    assert ledger.totals().calls == 3


def test_use_ledger_scopes_recording_and_the_process_ledger_catches_the_rest() -> None:
    llm = wrap_llm(ScriptedLLM(lambda r: "ok"), cache=False)
    run = Ledger(prices=PRICES)
    before = len(current_ledger())
    with use_ledger(run):
        llm.complete(request("in run", "collect.plan"))
    llm.complete(request("outside", "collect.plan"))
    assert len(run) == 1
    assert len(current_ledger()) == before + 1


def test_save_and_load_round_trip_from_file_or_run_directory(tmp_path: Path) -> None:
    ledger = Ledger(prices=PRICES)
    llm = wrap_llm(ScriptedLLM(lambda r: "ok"), cache=False, ledger=ledger)
    with attribute_to(7):
        llm.complete(request("q", "induce.synthesis"))
    ledger.save(tmp_path / "run" / "ledger.json")
    for source in (tmp_path / "run", tmp_path / "run" / "ledger.json"):
        loaded = Ledger.load(source)
        assert loaded.entries == ledger.entries
        assert loaded.by_row()["7"].calls == 1


def test_loading_a_non_ledger_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "ledger.json").write_text('{"rows": []}')
    with pytest.raises(LLMError, match="not a scrapesmith ledger"):
        Ledger.load(tmp_path)
    with pytest.raises(LLMError, match="no ledger at"):
        Ledger.load(tmp_path / "missing")
