"""The remote provider: any OpenAI-compatible chat-completions endpoint through the official SDK.

OpenAI, vLLM, Ollama, a llama.cpp server and LM Studio all speak this protocol, so one provider covers
them; ``OPENAI_BASE_URL`` picks the server. The SDK already retries 429, 408/409 and 5xx answers and
timeouts with exponential backoff (honouring ``Retry-After``), so that is used rather than a second
retry layer. A semaphore per endpoint bounds simultaneous requests across every instance in the process.

Servers differ in structured-output support, so the JSON mode degrades step by step — ``json_schema``,
then ``json_object``, then plain prompting — and remembers the first mode the server accepted.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import openai

from scrapesmith.dom import estimate_tokens
from scrapesmith.llm.views import Completion, LLMError, LLMRequest, PromptTooLongError

JSON_MODES = ("schema", "object", "prompt")
_semaphores: dict[str, threading.BoundedSemaphore] = {}
_semaphores_lock = threading.Lock()


def _endpoint_semaphore(endpoint: str, limit: int) -> threading.BoundedSemaphore:
    with _semaphores_lock:
        key = f"{endpoint}#{limit}"
        if key not in _semaphores:
            _semaphores[key] = threading.BoundedSemaphore(limit)
        return _semaphores[key]


class OpenAICompatibleLLM:
    """``openai:<model>``. ``json_mode`` is ``auto`` (degrade on refusal) or one of :data:`JSON_MODES`."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        concurrency: int = 4,
        json_mode: str = "auto",
    ) -> None:
        if json_mode != "auto" and json_mode not in JSON_MODES:
            raise LLMError(f"unknown JSON mode {json_mode!r}: use auto, {', '.join(JSON_MODES)}")
        self.model = model
        self.name = f"openai:{model}"
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self._modes = list(JSON_MODES) if json_mode == "auto" else [json_mode]
        self._client = openai.OpenAI(
            base_url=base_url,
            # Local servers (vLLM, Ollama, llama.cpp) need no key, but the SDK insists on one.
            api_key=api_key or "not-needed",
            timeout=timeout,
            max_retries=max_retries,
        )
        self._semaphore = _endpoint_semaphore(str(self._client.base_url), max(1, concurrency))

    @property
    def json_mode(self) -> str:
        """The structured-output mode currently in use for schema requests."""
        return self._modes[0]

    def complete(self, request: LLMRequest) -> Completion:
        started = time.perf_counter()
        with self._semaphore:
            response = self._create(request)
        choice = response.choices[0] if response.choices else None
        text = (choice.message.content if choice and choice.message else None) or ""
        usage = response.usage
        prompt = "".join(message.content for message in request.messages)
        return Completion(
            text=text,
            model=response.model or self.model,
            input_tokens=usage.prompt_tokens if usage else estimate_tokens(prompt),
            output_tokens=usage.completion_tokens if usage else estimate_tokens(text),
            latency=time.perf_counter() - started,
        )

    def _create(self, request: LLMRequest) -> Any:
        arguments: dict[str, Any] = {
            "model": self.model,
            "messages": [message.model_dump() for message in request.messages],
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        while True:
            mode = self._modes[0] if request.json_schema is not None else "prompt"
            response_format = _response_format(mode, request.json_schema)
            try:
                if response_format is None:
                    return self._client.chat.completions.create(**arguments)
                return self._client.chat.completions.create(**arguments, response_format=response_format)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if response_format is None or len(self._modes) == 1 or _is_context_error(exc):
                    raise self._translate(exc) from exc
                with _semaphores_lock:
                    if self._modes[0] == mode and len(self._modes) > 1:
                        self._modes.pop(0)
            except openai.OpenAIError as exc:
                raise self._translate(exc) from exc

    def _translate(self, exc: openai.OpenAIError) -> LLMError:
        where = f"{self.name} at {self._client.base_url}"
        if isinstance(exc, openai.APITimeoutError):
            return LLMError(f"{where} timed out after {self.timeout:g}s ({self.max_retries} retries)")
        if isinstance(exc, openai.APIConnectionError):
            return LLMError(f"cannot reach {where} (check OPENAI_BASE_URL): {exc}")
        if isinstance(exc, openai.AuthenticationError):
            return LLMError(f"{where} rejected the API key (check OPENAI_API_KEY)")
        if isinstance(exc, openai.RateLimitError):
            return LLMError(f"{where} is still rate-limiting after {self.max_retries} retries")
        if isinstance(exc, openai.APIStatusError):
            if _is_context_error(exc):
                return PromptTooLongError(f"{where}: the prompt exceeds the model's context window")
            return LLMError(f"{where} answered HTTP {exc.status_code}: {_short(exc)}")
        return LLMError(f"{where}: {_short(exc)}")


def _response_format(mode: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    if schema is None or mode == "prompt":
        return None
    if mode == "object":
        return {"type": "json_object"}
    return {"type": "json_schema", "json_schema": {"name": "output", "schema": schema, "strict": False}}


def _is_context_error(exc: openai.OpenAIError) -> bool:
    text = str(exc).lower()
    return "context_length_exceeded" in text or "maximum context length" in text


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:300]
