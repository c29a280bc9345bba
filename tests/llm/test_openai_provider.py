"""The OpenAI-compatible provider against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

import threading

import pytest

from scrapesmith.dom.tokens import estimate_tokens
from scrapesmith.llm import ChatMessage, LLMError, LLMRequest, OpenAICompatibleLLM, PromptTooLongError

from .conftest import ChatServer, Step

FAST_RETRY = {"retry-after-ms": "10"}


def provider(server: ChatServer, **options) -> OpenAICompatibleLLM:
    settings = {"base_url": server.url, "api_key": "test-key", "timeout": 5.0, "max_retries": 2} | options
    return OpenAICompatibleLLM("test-model", **settings)


def request(text: str = "hello", **fields) -> LLMRequest:
    return LLMRequest(messages=[ChatMessage(role="user", content=text)], **fields)


def test_completion_carries_text_model_and_usage(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text="Paris", usage=(21, 3)))
    completion = provider(chat_server).complete(request("capital of France?", max_tokens=9, temperature=0.3))
    assert (completion.text, completion.model) == ("Paris", "test-model")
    assert (completion.input_tokens, completion.output_tokens) == (21, 3)
    sent = chat_server.requests[0]
    assert sent["messages"] == [{"role": "user", "content": "capital of France?"}]
    assert (sent["max_tokens"], sent["temperature"]) == (9, 0.3)


def test_rate_limit_429_is_retried_then_succeeds(chat_server: ChatServer) -> None:
    chat_server.queue(Step(status=429, headers=FAST_RETRY), Step(text="after 429"))
    assert provider(chat_server).complete(request()).text == "after 429"
    assert chat_server.hits == 2


def test_server_error_503_is_retried_then_succeeds(chat_server: ChatServer) -> None:
    chat_server.queue(Step(status=503, headers=FAST_RETRY), Step(text="after 503"))
    assert provider(chat_server).complete(request()).text == "after 503"
    assert chat_server.hits == 2


def test_persistent_503_gives_up_after_retries_with_status(chat_server: ChatServer) -> None:
    chat_server.default = Step(status=503, headers=FAST_RETRY)
    with pytest.raises(LLMError, match="HTTP 503"):
        provider(chat_server, max_retries=1).complete(request())
    assert chat_server.hits == 2


def test_slow_server_times_out_with_clear_error(chat_server: ChatServer) -> None:
    chat_server.default = Step(text="too late", delay=1.0)
    with pytest.raises(LLMError, match="timed out after 0.3s"):
        provider(chat_server, timeout=0.3, max_retries=0).complete(request())


def test_timeout_is_retried_and_a_fast_answer_wins(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text="too late", delay=1.0), Step(text="in time"))
    assert provider(chat_server, timeout=0.3, max_retries=1).complete(request()).text == "in time"
    assert chat_server.hits == 2


def test_schema_requests_use_json_schema_response_format(chat_server: ChatServer) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    provider(chat_server).complete(request(json_schema=schema))
    sent = chat_server.requests[0]["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"] == schema


def test_json_mode_degrades_when_server_rejects_schemas(chat_server: ChatServer) -> None:
    refusal = {"message": "response_format json_schema is not supported", "type": "invalid_request_error"}
    chat_server.queue(Step(status=400, error=refusal, when='"json_schema"'))
    llm = provider(chat_server)
    llm.complete(request(json_schema={"type": "object"}))
    assert [r["response_format"]["type"] for r in chat_server.requests] == ["json_schema", "json_object"]
    assert llm.json_mode == "object"
    llm.complete(request("again", json_schema={"type": "object"}))
    assert chat_server.requests[-1]["response_format"]["type"] == "json_object"


def test_plain_requests_send_no_response_format(chat_server: ChatServer) -> None:
    provider(chat_server).complete(request())
    assert "response_format" not in chat_server.requests[0]


def test_missing_usage_is_estimated(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text="fine " * 10, usage=None))
    completion = provider(chat_server).complete(request("word " * 20))
    assert (completion.input_tokens, completion.output_tokens) == (
        estimate_tokens("word " * 20), estimate_tokens("fine " * 10))
    assert 18 <= completion.input_tokens <= 24 and 8 <= completion.output_tokens <= 12  # about a token a word


def test_rejected_key_names_openai_api_key(chat_server: ChatServer) -> None:
    chat_server.default = Step(status=401, error={"message": "bad key", "type": "invalid_api_key"})
    with pytest.raises(LLMError, match="OPENAI_API_KEY"):
        provider(chat_server).complete(request())


def test_context_overflow_is_prompt_too_long(chat_server: ChatServer) -> None:
    error = {"message": "This model's maximum context length is 8 tokens", "code": "context_length_exceeded"}
    chat_server.default = Step(status=400, error=error)
    with pytest.raises(PromptTooLongError):
        provider(chat_server).complete(request(json_schema={"type": "object"}))
    assert chat_server.hits == 1


def test_unreachable_endpoint_names_base_url() -> None:
    llm = OpenAICompatibleLLM("m", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout=2)
    with pytest.raises(LLMError, match="OPENAI_BASE_URL"):
        llm.complete(request())


def test_concurrency_limit_bounds_requests_in_flight(chat_server: ChatServer) -> None:
    chat_server.default = Step(text="slow", delay=0.2)
    llm = provider(chat_server, concurrency=2)
    threads = [threading.Thread(target=llm.complete, args=(request(f"q{i}"),)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert chat_server.hits == 6
    assert chat_server.max_in_flight == 2
