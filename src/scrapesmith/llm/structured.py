"""Structured calls: ask for JSON matching a pydantic model (or a raw JSON schema) and get it validated.

The schema travels with the request, so the local provider compiles it into a llama.cpp grammar and
remote providers use their JSON modes; it is also spelled out in the prompt for servers without either.
Replies are parsed the seeds' way — the first fenced ```json block, else the first bare JSON value —
with json-repair for the near misses small models make. One retry feeds the parse or validation error
back to the model; a second failure raises :class:`LLMOutputError`, which callers catch to record a
per-item failure and move on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import json_repair
import jsonschema
from pydantic import TypeAdapter, ValidationError

from scrapesmith.llm.client import require_llm
from scrapesmith.llm.views import LLM, ChatMessage, LLMOutputError, LLMRequest

T = TypeVar("T")

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


class JSONReplyError(ValueError):
    """The reply holds no JSON value that can be recovered."""


def parse_json_reply(text: str) -> Any:
    """The first fenced JSON block of ``text`` (preferring ```json fences), else its first bare JSON value."""
    candidate = _first_fenced_block(text)
    if candidate is None:
        start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
        if start < 0:
            return _bare_scalar(text)
        candidate = text[start:]
    try:
        return json.JSONDecoder().raw_decode(candidate.strip())[0]
    except ValueError:
        repaired = json_repair.loads(candidate)
    if repaired == "" or repaired is None:
        raise JSONReplyError("the reply's JSON could not be parsed or repaired")
    return repaired


def _bare_scalar(text: str) -> Any:
    """A reply that is only a JSON scalar (a schema may ask for a number or a string)."""
    try:
        return json.loads(text.strip())
    except ValueError:
        raise JSONReplyError("the reply contains no JSON object or array") from None


def _first_fenced_block(text: str) -> str | None:
    blocks = [(language.lower(), body) for language, body in _FENCE.findall(text)]
    for language, body in blocks:
        if language == "json":
            return body
    for _, body in blocks:
        if body.lstrip()[:1] in ("{", "["):
            return body
    return None


def conversation(messages: list[ChatMessage] | str, system: str | None = None) -> list[ChatMessage]:
    """Normalise a prompt (a string or a message list) and put ``system`` first."""
    chat = [ChatMessage(role="user", content=messages)] if isinstance(messages, str) else list(messages)
    if system is not None:
        chat.insert(0, ChatMessage(role="system", content=system))
    return chat


def ask_text(
    llm: LLM | None,
    messages: list[ChatMessage] | str,
    *,
    stage: str,
    system: str | None = None,
    max_tokens: int = 512,
    temperature: float = 0.0,
) -> str:
    """One free-text completion."""
    request = LLMRequest(
        messages=conversation(messages, system), temperature=temperature, max_tokens=max_tokens, stage=stage
    )
    return require_llm(llm, stage).complete(request).text


def ask_structured(
    llm: LLM | None,
    messages: list[ChatMessage] | str,
    output_model: type[T],
    *,
    stage: str,
    system: str | None = None,
    max_tokens: int = 512,
    temperature: float = 0.0,
    reasoning: bool = False,
) -> T:
    """Ask for a value of ``output_model`` (a pydantic model or any type pydantic can validate).

    With ``reasoning=True`` the schema is not enforced by grammar or JSON mode, so the model may think
    aloud first and end with a fenced JSON block, as the seed prompts (InSTA agent and judge) ask.
    """
    adapter = TypeAdapter(output_model)
    return _ask_validated(
        require_llm(llm, stage), conversation(messages, system), adapter.json_schema(), adapter.validate_python,
        stage=stage, max_tokens=max_tokens, temperature=temperature, reasoning=reasoning,
        label=getattr(output_model, "__name__", str(output_model)),
    )


def ask_json(
    llm: LLM | None,
    messages: list[ChatMessage] | str,
    schema: dict[str, Any],
    *,
    stage: str,
    system: str | None = None,
    max_tokens: int = 512,
    temperature: float = 0.0,
    reasoning: bool = False,
) -> Any:
    """Like :func:`ask_structured` for a raw JSON schema (e.g. ``llm ask --schema file.json``)."""
    try:
        validator = jsonschema.validators.validator_for(schema)(schema)
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise LLMOutputError(f"the JSON schema itself is invalid: {exc.message}") from exc

    def validate(value: Any) -> Any:
        validator.validate(value)
        return value

    return _ask_validated(
        require_llm(llm, stage), conversation(messages, system), schema, validate,
        stage=stage, max_tokens=max_tokens, temperature=temperature, reasoning=reasoning,
        label=str(schema.get("title", "the schema")),
    )


def _ask_validated(
    llm: LLM,
    chat: list[ChatMessage],
    schema: dict[str, Any],
    validate: Callable[[Any], T],
    *,
    stage: str,
    max_tokens: int,
    temperature: float,
    reasoning: bool,
    label: str,
) -> T:
    chat = with_schema_instruction(chat, schema, reasoning)
    problem, reply = "", ""
    for _attempt in range(2):
        request = LLMRequest(
            messages=chat,
            json_schema=None if reasoning else schema,
            temperature=temperature,
            max_tokens=max_tokens,
            stage=stage,
        )
        reply = llm.complete(request).text
        try:
            return validate(parse_json_reply(reply))
        except (JSONReplyError, ValidationError, jsonschema.ValidationError) as exc:
            problem = describe_problem(exc)
        chat = [*chat, ChatMessage(role="assistant", content=reply), ChatMessage(role="user", content=_feedback(problem))]
    raise LLMOutputError(f"{llm.name} ({stage}): reply did not match {label} after one retry: {problem}", raw=reply)


def with_schema_instruction(chat: list[ChatMessage], schema: dict[str, Any], reasoning: bool) -> list[ChatMessage]:
    """``chat`` with the schema spelled out in its last user message, as every structured call sends it
    (exporters rebuild training prompts with it)."""
    compact = json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
    if reasoning:
        instruction = f"End your reply with a JSON value matching this JSON schema, in a ```json fenced block:\n{compact}"
    else:
        instruction = f"Reply with only a JSON value matching this JSON schema:\n{compact}"
    if chat and chat[-1].role == "user":
        last = chat[-1]
        return [*chat[:-1], ChatMessage(role="user", content=f"{last.content}\n\n{instruction}")]
    return [*chat, ChatMessage(role="user", content=instruction)]


def _feedback(problem: str) -> str:
    return (
        f"Your reply could not be used: {problem}\n"
        "Reply again with only the corrected JSON value, matching the schema exactly."
    )


def describe_problem(exc: Exception) -> str:
    """A short, model-readable account of why a reply was rejected."""
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(str(p) for p in error['loc']) or 'value'}: {error['msg']}" for error in exc.errors()[:5]]
        return "; ".join(parts)
    if isinstance(exc, jsonschema.ValidationError):
        where = ".".join(str(p) for p in exc.absolute_path) or "value"
        return f"{where}: {exc.message}"[:400]
    return str(exc)[:400]
