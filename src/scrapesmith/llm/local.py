"""The embedded provider: a GGUF model run on the CPU by llama-cpp-python.

Loaded models are shared per process (keyed by file and context size), because each load maps a
gigabyte and the llama.cpp context is not safe to use from two threads at once — so calls on one model
are serialised with a lock. llama-cpp-python keeps the evaluated prompt between calls, so calls that
share a long prefix (one system prompt, many pages) only pay for the new part. JSON-schema requests become a llama.cpp grammar, which makes even a small
model emit parseable, schema-shaped JSON; the grammar is built and parsed by :mod:`scrapesmith.llm.grammar`
before the model is loaded or asked, so one that llama.cpp cannot parse is a :class:`GrammarError`, never a
crash. Loaded models are closed at interpreter exit (``atexit``), while llama-cpp-python's module is still
whole: left to the garbage collector at shutdown its clean-up prints a traceback.
"""

from __future__ import annotations

import atexit
import threading
import time
from pathlib import Path
from typing import Any

from scrapesmith.llm.grammar import schema_grammar
from scrapesmith.llm.views import Completion, LLMError, LLMRequest, PromptTooLongError

DEFAULT_CONTEXT = 8192
DEFAULT_THREADS = 2
CLOSE_WAIT = 5.0

_loaded: dict[tuple[str, int, int], tuple[Any, threading.Lock]] = {}
_loading_lock = threading.Lock()
_closing_registered = False


def llama_cpp_available() -> bool:
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return False
    return True


def _require_llama_cpp() -> None:
    if not llama_cpp_available():
        raise LLMError("the local model needs llama-cpp-python: install scrapesmith with the 'local' extra")


def _load(path: Path, n_ctx: int, n_threads: int) -> tuple[Any, threading.Lock]:
    key = (str(path), n_ctx, n_threads)
    with _loading_lock:
        if key not in _loaded:
            _require_llama_cpp()
            from llama_cpp import Llama

            try:
                model = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads, verbose=False)
            except (ValueError, RuntimeError, OSError) as exc:
                raise LLMError(f"cannot load the model file {path}: {exc}") from exc
            _loaded[key] = (model, threading.Lock())
            _close_at_exit()
        return _loaded[key]


def _close_at_exit() -> None:
    global _closing_registered
    if not _closing_registered:
        atexit.register(close_all)
        _closing_registered = True


def close_all() -> None:
    """Close every loaded model (at interpreter exit; a call still running keeps its model until it ends)."""
    with _loading_lock:
        entries = list(_loaded.values())
        _loaded.clear()
    for model, lock in entries:
        if lock.acquire(timeout=CLOSE_WAIT):  # a daemon thread stuck in a call must not hang the exit
            try:
                _close(model)
            finally:
                lock.release()


def _close(model: Any) -> None:
    """Free the model's last sampler chain (``Llama.close`` leaves it to the garbage collector, which at
    shutdown finds llama-cpp-python's functions already gone), then the model itself."""
    sampler = getattr(model, "_sampler", None)
    if sampler is not None:
        sampler.close()
        model._sampler = None
    model.close()


class LocalLLM:
    """An embedded llama.cpp model. ``name`` is the spec that selects it, e.g. ``local:1.5b``."""

    def __init__(
        self,
        path: Path,
        *,
        name: str = "local",
        model_label: str | None = None,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int = DEFAULT_THREADS,
    ) -> None:
        if not Path(path).is_file():
            raise LLMError(f"model file not found: {path}")
        self.path = Path(path)
        self.name = name
        self.model_label = model_label or self.path.stem
        self.context_size = n_ctx
        self.n_threads = n_threads

    @property
    def llama(self) -> Any:
        return _load(self.path, self.context_size, self.n_threads)[0]

    def unload(self) -> None:
        """Free this model's memory now (benchmarks load sizes one after another)."""
        with _loading_lock:
            entry = _loaded.pop((str(self.path), self.context_size, self.n_threads), None)
        if entry is not None:
            with entry[1]:
                _close(entry[0])

    def count_tokens(self, text: str) -> int:
        """Exact token count with the model's own tokenizer (for prompt budgeting)."""
        model, lock = _load(self.path, self.context_size, self.n_threads)
        with lock:
            return len(model.tokenize(text.encode(), add_bos=False, special=True))

    def complete(self, request: LLMRequest) -> Completion:
        arguments: dict[str, Any] = {
            "messages": [message.model_dump() for message in request.messages],
            "temperature": request.temperature,
            "max_tokens": request.max_tokens,
        }
        if request.json_schema is not None:
            _require_llama_cpp()
            from llama_cpp import LlamaGrammar

            arguments["grammar"] = LlamaGrammar.from_string(schema_grammar(request.json_schema), verbose=False)
        model, lock = _load(self.path, self.context_size, self.n_threads)
        started = time.perf_counter()
        with lock:
            try:
                reply = model.create_chat_completion(**arguments)
            except ValueError as exc:
                model.reset()
                if "exceed context window" in str(exc):
                    raise PromptTooLongError(f"local model {self.model_label}: {exc}") from exc
                raise LLMError(f"local model {self.model_label}: {exc}") from exc
        usage = reply.get("usage") or {}
        return Completion(
            text=reply["choices"][0]["message"].get("content") or "",
            model=self.model_label,
            input_tokens=int(usage.get("prompt_tokens", 0)),
            output_tokens=int(usage.get("completion_tokens", 0)),
            latency=time.perf_counter() - started,
        )
