"""A scripted provider: a plain function from request to reply text.

It exists so tests can drive control flow (retries, parsing, caching, agent loops) deterministically
through the same seam the real providers use. It never stands in for a capability claim.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from scrapesmith.dom import estimate_tokens
from scrapesmith.llm.views import Completion, LLMRequest


class ScriptedLLM:
    """Answers every request with ``respond(request)`` and remembers the requests it saw."""

    def __init__(self, respond: Callable[[LLMRequest], str], name: str = "scripted") -> None:
        self.respond = respond
        self.name = name
        self.requests: list[LLMRequest] = []
        self._lock = threading.Lock()

    @property
    def calls(self) -> int:
        return len(self.requests)

    def complete(self, request: LLMRequest) -> Completion:
        started = time.perf_counter()
        with self._lock:
            self.requests.append(request)
        text = self.respond(request)
        prompt = "".join(message.content for message in request.messages)
        return Completion(
            text=text,
            model=self.name,
            input_tokens=estimate_tokens(prompt),
            output_tokens=estimate_tokens(text),
            latency=time.perf_counter() - started,
        )
