"""Structured output: parsing, repair, one retry with feedback, and the typed error after it."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from scrapesmith.llm import (
    LLMOutputError,
    NoModelConfigured,
    OpenAICompatibleLLM,
    ask_json,
    ask_structured,
    ask_text,
    parse_json_reply,
)
from scrapesmith.llm.scripted import ScriptedLLM

from .conftest import ChatServer, Step


class Book(BaseModel):
    title: str
    pages: int


def remote(server: ChatServer) -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM("test-model", base_url=server.url, api_key="k", timeout=5, max_retries=0)


def test_first_fenced_json_block_wins_over_later_ones() -> None:
    reply = 'Plan: click.\n```json\n{"a": 1}\n```\nor maybe\n```json\n{"a": 2}\n```'
    assert parse_json_reply(reply) == {"a": 1}


def test_bare_json_after_prose_is_found() -> None:
    assert parse_json_reply('Sure! Here it is: {"a": [1, 2]} — done.') == {"a": [1, 2]}


def test_unclosed_fence_from_a_truncated_reply_is_repaired() -> None:
    assert parse_json_reply('```json\n{"title": "Dune", "pages": 412') == {"title": "Dune", "pages": 412}


def test_reply_without_json_is_rejected() -> None:
    with pytest.raises(ValueError, match="no JSON"):
        parse_json_reply("I cannot help with that.")


def test_malformed_json_from_server_is_repaired(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text="```json\n{'title': 'Dune', 'pages': 412,}\n```"))
    book = ask_structured(remote(chat_server), "Which book?", Book, stage="test.repair")
    assert book == Book(title="Dune", pages=412)
    assert chat_server.hits == 1


def test_invalid_json_twice_raises_typed_error_after_one_retry(chat_server: ChatServer) -> None:
    chat_server.default = Step(text="I would rather not answer in JSON.")
    with pytest.raises(LLMOutputError) as caught:
        ask_structured(remote(chat_server), "Which book?", Book, stage="test.invalid")
    assert chat_server.hits == 2
    assert caught.value.raw == "I would rather not answer in JSON."
    feedback = chat_server.requests[1]["messages"]
    assert feedback[-2] == {"role": "assistant", "content": "I would rather not answer in JSON."}
    assert "could not be used" in feedback[-1]["content"]


def test_validation_error_is_fed_back_and_retry_succeeds(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text='{"title": "Dune", "pages": "many"}'), Step(text='{"title": "Dune", "pages": 412}'))
    book = ask_structured(remote(chat_server), "Which book?", Book, stage="test.retry")
    assert book.pages == 412
    assert "pages" in chat_server.requests[1]["messages"][-1]["content"]


def test_schema_is_sent_to_the_server_and_spelled_out_in_the_prompt(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text='{"title": "Dune", "pages": 412}'))
    ask_structured(remote(chat_server), "Which book?", Book, stage="test.schema", system="Be terse.")
    sent = chat_server.requests[0]
    assert sent["response_format"]["json_schema"]["schema"]["required"] == ["title", "pages"]
    assert sent["messages"][0] == {"role": "system", "content": "Be terse."}
    assert '"pages"' in sent["messages"][-1]["content"]


def test_reasoning_mode_lets_the_model_think_before_the_fenced_block(chat_server: ChatServer) -> None:
    chat_server.queue(Step(text='The page shows one book.\n```json\n{"title": "Dune", "pages": 412}\n```'))
    book = ask_structured(remote(chat_server), "Which book?", Book, stage="test.reasoning", reasoning=True)
    assert book.title == "Dune"
    assert "response_format" not in chat_server.requests[0]


def test_ask_json_validates_against_a_raw_schema() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 10}}, "required": ["n"]}
    replies = iter(['{"n": 3}', '{"n": 12}'])
    llm = ScriptedLLM(lambda request: next(replies))
    assert ask_json(llm, "pick", schema, stage="test.raw") == {"n": 12}
    assert "n: 3 is less than the minimum of 10" in llm.requests[1].messages[-1].content


def test_ask_json_rejects_an_invalid_schema() -> None:
    with pytest.raises(LLMOutputError, match="schema itself is invalid"):
        ask_json(ScriptedLLM(lambda request: "{}"), "pick", {"type": "no-such-type"}, stage="test.bad")


def test_ask_text_returns_the_reply_and_tags_the_stage() -> None:
    llm = ScriptedLLM(lambda request: f"echo {request.messages[-1].content}")
    assert ask_text(llm, "hi", stage="test.text", max_tokens=5) == "echo hi"
    assert (llm.requests[0].stage, llm.requests[0].max_tokens) == ("test.text", 5)


def test_no_model_raises_no_model_configured_naming_the_setting() -> None:
    with pytest.raises(NoModelConfigured, match="needs a language model, but none is configured"):
        ask_structured(None, "Which book?", Book, stage="induce.top_down")


def test_scalar_schemas_accept_a_bare_scalar_reply() -> None:
    assert ask_structured(ScriptedLLM(lambda request: " 42 "), "How many?", int, stage="test.scalar") == 42


def test_only_the_first_of_several_bare_values_is_taken() -> None:
    assert parse_json_reply('{"a": 1} and later {"a": 2}') == {"a": 1}
