"""``bench swde --model-lock FILE``: the lock is held while the model answers, and only then — an answer the
response cache holds takes no lock (a scripted model stands in for the provider)."""

from __future__ import annotations

import fcntl
import json
from pathlib import Path

from scrapesmith.cli.bench.swde import locked
from scrapesmith.llm import ChatMessage, LLMRequest, wrap_llm
from scrapesmith.llm.cache import ResponseCache
from scrapesmith.llm.scripted import ScriptedLLM


def held_elsewhere(lock: Path) -> bool:
    with lock.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def test_the_lock_is_held_while_the_model_answers_and_not_for_a_cached_answer(tmp_path: Path) -> None:
    lock = tmp_path / "model.lock"
    seen: list[bool] = []

    def answer(request) -> str:
        seen.append(held_elsewhere(lock))
        return json.dumps({"ok": True})

    provider = ScriptedLLM(answer)
    model = locked(wrap_llm(provider, cache=ResponseCache(tmp_path / "cache.sqlite3")), lock)
    request = LLMRequest(messages=[ChatMessage(role="user", content="hello")])
    model.complete(request)
    model.complete(request)  # from the cache: the provider is not asked again
    assert seen == [True] and provider.calls == 1 and not held_elsewhere(lock)
