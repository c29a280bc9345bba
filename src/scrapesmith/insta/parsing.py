"""The seed's ``f^{text->act}`` / ``f^{text->val}``: the first fenced JSON block of a response, decoded.

Agent, judge and refining proposer all answer with a reasoning trace followed by JSON in a fenced code
block (sections 3 and 5.1). A regex takes the *first* fenced block; ``json.loads`` decodes it and
json-repair rescues small slips (trailing commas, single quotes) that small local models make.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

import json_repair

from scrapesmith.llm import ChatMessage, LLMOutputError

T = TypeVar("T")

_FENCED = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_OPEN_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(\{.*)", re.DOTALL)


def first_fenced_json(text: str) -> dict[str, Any]:
    """Decode the first fenced JSON object in ``text``; raise :class:`LLMOutputError` when there is none.

    An unterminated last fence (the model ran out of tokens after the closing brace) still counts.
    """
    match = _FENCED.search(text) or _OPEN_FENCE.search(text)
    if match is None:
        raise LLMOutputError("no fenced JSON code block in the response", raw=text)
    block = match.group(1).strip()
    try:
        value = json.loads(block)
    except json.JSONDecodeError:
        value = json_repair.loads(block) if block.startswith("{") else None
    if not isinstance(value, dict):
        raise LLMOutputError("the first fenced code block is not a JSON object", raw=text)
    return value


def parse_with_one_retry(complete: Callable[[list[ChatMessage]], str], messages: list[ChatMessage],
                         parse: Callable[[str], T], what: str) -> T:
    """``parse(complete(messages))``; when that fails, one more turn with the error fed back, then the
    second answer's :class:`LLMOutputError` propagates (judge scores, refined tasks)."""
    response = complete(messages)
    try:
        return parse(response)
    except LLMOutputError as error:
        retry = [*messages, ChatMessage(role="assistant", content=response),
                 ChatMessage(role="user", content=f"Your {what} could not be read: {error}. Reply with the "
                             f"{what} as JSON in a fenced code block.")]
    return parse(complete(retry))
