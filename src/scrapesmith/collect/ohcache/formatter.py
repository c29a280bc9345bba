"""The oriented hyperedge formatter g_i (Eq. 4): a pydantic schema per role; free text is rejected and re-asked.

Two jobs. (1) When an agent asks its model for a decision, the reply must be a JSON value of that
agent's reply schema; anything else is rejected with the validation problem and asked again (at most
``max_reasks`` times). (2) Before a message enters the hypergraph it is validated against its role's
message schema and written as compact JSON. With ablation A4 (``enabled=False``) neither happens: the
model answers in free text (parsed only if it happens to be JSON) and messages travel as prose.
"""

from __future__ import annotations

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from scrapesmith.collect.views import ROLE_SCHEMAS, Role
from scrapesmith.llm import (
    LLM,
    ChatMessage,
    JSONReplyError,
    LLMOutputError,
    LLMRequest,
    describe_problem,
    parse_json_reply,
)

T = TypeVar("T", bound=BaseModel)


class FormatRejected(LLMOutputError):
    """The agent kept answering outside its schema after every re-ask."""


class HyperedgeFormatter:
    def __init__(self, enabled: bool = True, max_reasks: int = 2) -> None:
        self.enabled = enabled
        self.max_reasks = max_reasks
        self.rejections = 0

    def ask(self, llm: LLM, chat: list[ChatMessage], reply_model: type[T], *, stage: str,
            max_tokens: int = 384) -> T | None:
        """The model's decision as ``reply_model``; ``None`` only when the formatter is off and the reply is prose."""
        schema = reply_model.model_json_schema()
        if not self.enabled:
            text = llm.complete(LLMRequest(messages=chat, max_tokens=max_tokens, stage=stage)).text
            return _parse_or_none(text, reply_model)
        chat = _with_schema(chat, schema)
        problem, text = "", ""
        for _attempt in range(self.max_reasks + 1):
            text = llm.complete(LLMRequest(messages=chat, json_schema=schema, max_tokens=max_tokens, stage=stage)).text
            try:
                return reply_model.model_validate(parse_json_reply(text))
            except (JSONReplyError, ValidationError) as exc:
                problem = describe_problem(exc)
            self.rejections += 1
            chat = [*chat, ChatMessage(role="assistant", content=text), ChatMessage(role="user", content=(
                f"Rejected by the message formatter: {problem}\nFree text is not accepted. Reply with only a JSON "
                "value matching the schema."))]
        raise FormatRejected(f"{stage}: the reply did not match {reply_model.__name__} after "
                             f"{self.max_reasks} re-asks: {problem}", raw=text)

    def format(self, role: Role, content: BaseModel | dict) -> tuple[dict, str]:
        """g_i(m): the message validated against ``role``'s schema, and the text receivers read."""
        schema = ROLE_SCHEMAS[role]
        value = content if isinstance(content, schema) else schema.model_validate(
            content.model_dump() if isinstance(content, BaseModel) else content)
        data = value.model_dump(mode="json")
        if self.enabled:
            return data, json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return data, prose(role, data)


def prose(role: Role, data: dict) -> str:
    """The unformatted message of ablation A4: the same facts as loose natural language."""
    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            value = "; ".join(json.dumps(v, ensure_ascii=False) if isinstance(v, dict) else str(v) for v in value)
        elif isinstance(value, dict):
            value = json.dumps(value, ensure_ascii=False)
        parts.append(f"the {key.replace('_', ' ')} is {value}")
    return f"Hello team, this is the {role} agent. Here is what I found: " + ", and ".join(parts) + ". Thanks!"


def _with_schema(chat: list[ChatMessage], schema: dict) -> list[ChatMessage]:
    note = "Reply with only a JSON value matching this JSON schema:\n" + json.dumps(schema, separators=(",", ":"))
    last = chat[-1]
    return [*chat[:-1], ChatMessage(role=last.role, content=f"{last.content}\n\n{note}")]


def _parse_or_none(text: str, reply_model: type[T]) -> T | None:
    try:
        return reply_model.model_validate(parse_json_reply(text))
    except (JSONReplyError, ValidationError):
        return None
