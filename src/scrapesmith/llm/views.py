"""Data types of the LLM seam: a request, a completion, and the ``LLM`` protocol every provider implements."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from scrapesmith.errors import ScrapesmithError


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant"]
    content: str


class LLMRequest(BaseModel):
    """One chat call. ``json_schema`` asks the provider to constrain output to that schema when it can."""

    messages: list[ChatMessage]
    json_schema: dict[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    stage: str = Field(default="default", description="who is calling (ledger key), e.g. 'induce.top_down'")


class Completion(BaseModel):
    text: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    latency: float = 0.0
    cached: bool = False


class LLM(Protocol):
    """The seam every capability talks to models through."""

    name: str

    def complete(self, request: LLMRequest) -> Completion: ...


class LLMError(ScrapesmithError):
    """The model could not be reached or configured."""


class LLMOutputError(LLMError):
    """The model's output did not parse into the requested schema, even after one retry."""

    def __init__(self, message: str, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class GrammarError(LLMOutputError):
    """The request's JSON schema gives a grammar the embedded model cannot use (it does not parse): the
    model is not asked at all, and callers fall back as for an unusable answer."""


class PromptTooLongError(LLMError):
    """The request does not fit the model's context window; the caller should send less."""


class NoModelConfigured(LLMError):
    """A capability that truly needs a model was called with ``SCRAPESMITH_LLM=none``."""


class UnknownModelSetting(LLMError):
    """A model setting that names no provider we know (``SCRAPESMITH_LLM`` or the caller's choice)."""


class ModelNotInstalled(LLMError):
    """The embedded model of ``size`` is asked for but its weights are not on this machine."""

    def __init__(self, size: str, message: str) -> None:
        super().__init__(message)
        self.size = size

    def __reduce__(self) -> tuple:
        """Rebuilt from its own arguments when it crosses a process pool (a worker resolves its model)."""
        return type(self), (self.size, str(self))
