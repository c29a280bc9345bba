"""The model's time on a shared machine: ``bench swde --model-lock FILE`` holds the lock while the model answers
and only then (an answer the response cache holds takes no lock), and ``induce`` gives a read a time before its
call at the pace of the model's recent answers. A scripted model stands in for the provider."""

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


def test_a_read_is_given_a_time_before_its_call_at_the_pace_of_the_models_recent_answers(tmp_path: Path) -> None:
    from rich.progress import Progress

    from scrapesmith.cli.induce import ModelWatch, model_pace
    from scrapesmith.llm import Completion

    cache = ResponseCache(tmp_path / "cache.sqlite3")
    for n, (seconds, tokens) in enumerate([(30.0, 1000), (90.0, 1500), (10.0, 1000)]):
        request = LLMRequest(messages=[ChatMessage(role="user", content=f"page {n}")])
        cache.put(str(n), "scripted", request, Completion(text="{}", input_tokens=tokens, latency=seconds))
    assert cache.pace("scripted") == 0.03 and cache.pace("another") is None  # the median of 0.01, 0.03, 0.06
    model = wrap_llm(ScriptedLLM(lambda request: "{}"), cache=cache)
    assert model_pace(model) == 0.03
    with Progress(disable=True) as progress:
        task = progress.add_task("fetching", total=None)
        watch = ModelWatch(progress, task, "read", 4, model_pace(model))
        watch.field("reading seed page 1 (~1,500 tokens) for author, year")
        assert progress.tasks[0].description.endswith(": ~45 s a call at this machine's recent pace, at most 4 calls")
