"""The SQLite response cache: identical requests never reach the model twice."""

from __future__ import annotations

from pathlib import Path

from scrapesmith.llm import (
    CachedLLM,
    ChatMessage,
    LLMRequest,
    OpenAICompatibleLLM,
    ResponseCache,
    resolve_llm,
)

from .conftest import ChatServer, Step


def remote(server: ChatServer) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM("test-model", base_url=server.url, api_key="k", timeout=5, max_retries=0)


def request(text: str = "hello", **fields) -> LLMRequest:
    return LLMRequest(messages=[ChatMessage(role="user", content=text)], **fields)


def test_repeat_request_is_served_from_cache(chat_server: ChatServer, tmp_path: Path) -> None:
    chat_server.default = Step(text="fresh")
    llm = CachedLLM(remote(chat_server), ResponseCache(tmp_path / "c.sqlite3"))
    first, second = llm.complete(request()), llm.complete(request())
    assert chat_server.hits == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.text == "fresh" and second.input_tokens == first.input_tokens


def test_cache_survives_a_new_process_view_of_the_file(chat_server: ChatServer, tmp_path: Path) -> None:
    CachedLLM(remote(chat_server), ResponseCache(tmp_path / "c.sqlite3")).complete(request())
    again = CachedLLM(remote(chat_server), ResponseCache(tmp_path / "c.sqlite3")).complete(request())
    assert again.cached and chat_server.hits == 1


def test_sampling_params_schema_and_model_are_part_of_the_key(chat_server: ChatServer, tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite3")
    llm = CachedLLM(remote(chat_server), cache)
    for variant in (request(), request(temperature=0.5), request(max_tokens=7), request(json_schema={"type": "object"})):
        llm.complete(variant)
    other_model = OpenAICompatibleLLM("other-model", base_url=chat_server.url, api_key="k", max_retries=0)
    CachedLLM(other_model, cache).complete(request())
    assert chat_server.hits == 5
    assert len(cache) == 5


def test_stage_is_not_part_of_the_key(chat_server: ChatServer, tmp_path: Path) -> None:
    llm = CachedLLM(remote(chat_server), ResponseCache(tmp_path / "c.sqlite3"))
    llm.complete(request(stage="induce.top_down"))
    assert llm.complete(request(stage="lists.policy")).cached
    assert chat_server.hits == 1


def test_resolved_llm_caches_in_the_cache_dir_and_no_cache_bypasses(
    chat_server: ChatServer, clean_env, tmp_path: Path
) -> None:
    clean_env.setenv("OPENAI_BASE_URL", chat_server.url)
    cached = resolve_llm("openai:test-model")
    cached.complete(request())
    cached.complete(request())
    assert chat_server.hits == 1
    assert (tmp_path / "cache" / "llm-cache.sqlite3").is_file()
    uncached = resolve_llm("openai:test-model", cache=False)
    uncached.complete(request())
    uncached.complete(request())
    assert chat_server.hits == 3


def test_simultaneous_identical_requests_reach_the_model_once(chat_server: ChatServer, tmp_path: Path) -> None:
    import threading

    chat_server.default = Step(text="slow answer", delay=0.3)
    llm = CachedLLM(remote(chat_server), ResponseCache(tmp_path / "c.sqlite3"))
    results = []
    threads = [threading.Thread(target=lambda: results.append(llm.complete(request()))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert chat_server.hits == 1
    assert sorted(result.cached for result in results) == [False, True, True, True]
