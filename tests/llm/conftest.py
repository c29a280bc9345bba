"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol, with scripted replies.

Each request takes the next step of a script (status, reply text, delay, headers); when the script is
used up the default step answers. The server counts hits, keeps request bodies and tracks how many
requests were in flight at once, so tests can check retries, caching and the concurrency limit from
the outside.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Step:
    text: str = "ok"
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    error: dict[str, Any] | None = None
    usage: tuple[int, int] | None = (11, 7)
    when: str | None = None  # only for requests whose body contains this text; other requests skip it


@dataclass
class ChatServer:
    url: str
    script: list[Step] = field(default_factory=list)
    default: Step = field(default_factory=Step)
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def hits(self) -> int:
        return len(self.requests)

    def queue(self, *steps: Step) -> None:
        self.script.extend(steps)

    def next_step(self, body: str) -> Step:
        with self.lock:
            for index, step in enumerate(self.script):
                if step.when is None or step.when in body:
                    return self.script.pop(index)
            return self.default


def _handler(server_state: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            with server_state.lock:
                server_state.requests.append(json.loads(raw))
                server_state.in_flight += 1
                server_state.max_in_flight = max(server_state.max_in_flight, server_state.in_flight)
            try:
                step = server_state.next_step(raw)
                if step.delay:
                    time.sleep(step.delay)
                self._answer(step, json.loads(raw))
            finally:
                with server_state.lock:
                    server_state.in_flight -= 1

        def _answer(self, step: Step, request: dict[str, Any]) -> None:
            if step.status != 200:
                payload = {"error": step.error or {"message": f"scripted {step.status}", "type": "scripted"}}
            else:
                payload = {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": request.get("model", "test"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": step.text}}],
                }
                if step.usage:
                    payload["usage"] = {"prompt_tokens": step.usage[0], "completion_tokens": step.usage[1],
                                        "total_tokens": sum(step.usage)}
            body = json.dumps(payload).encode()
            try:
                self.send_response(step.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in step.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (timeout tests)

    return Handler


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    state = ChatServer(url="")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> Any:
    """No model settings from the developer's shell, and a private cache directory."""
    for name in ("SCRAPESMITH_LLM", "OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_MODEL",
                 "SCRAPESMITH_LLM_PRICES", "SCRAPESMITH_LLM_LOCAL_SIZE", "SCRAPESMITH_LLM_OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCRAPESMITH_CACHE_DIR", str(tmp_path / "cache"))
    return monkeypatch
