"""SQLite response cache: an identical request never reaches a model twice.

The key is a hash of everything that determines the answer — provider and model (the LLM's name), the
messages, the JSON schema and the sampling parameters — and deliberately not the ledger stage, so two
stages asking the same question share one answer. SQLite in WAL mode lets several processes (a local
pool, parallel tests) share one cache file safely.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from scrapesmith.llm.views import LLM, Completion, LLMRequest

CACHE_FILE_NAME = "llm-cache.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    llm TEXT NOT NULL,
    request TEXT NOT NULL,
    completion TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def request_key(llm_name: str, request: LLMRequest) -> str:
    payload = {
        "llm": llm_name,
        "messages": [message.model_dump() for message in request.messages],
        "schema": request.json_schema,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    }
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


class ResponseCache:
    """A table of completions keyed by :func:`request_key`, in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        with self._lock:
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute(_SCHEMA)
            self._connection.commit()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._connection.execute("SELECT completion FROM responses WHERE key = ?", (key,)).fetchone()
        return Completion.model_validate_json(row[0]) if row else None

    def put(self, key: str, llm_name: str, request: LLMRequest, completion: Completion) -> None:
        with self._lock:
            self._connection.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)",
                (key, llm_name, request.model_dump_json(), completion.model_dump_json(), time.time()),
            )
            self._connection.commit()

    def pace(self, llm_name: str, recent: int = 50) -> float | None:
        """Seconds per prompt token of ``llm_name``'s most recent answers kept here (the median), or None: a
        time estimate before a call, at the pace this machine last had."""
        with self._lock:
            rows = self._connection.execute("SELECT completion FROM responses WHERE llm = ? ORDER BY created DESC "
                                            "LIMIT ?", (llm_name, recent)).fetchall()
        rates = sorted(c.latency / c.input_tokens for c in (Completion.model_validate_json(r[0]) for r in rows)
                       if c.input_tokens > 0 and c.latency > 0)
        return rates[len(rates) // 2] if rates else None

    def __len__(self) -> int:
        with self._lock:
            return self._connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._connection.close()


class CachedLLM:
    """Wraps any LLM: answers repeats from the cache (marked ``cached=True``, latency ~0)."""

    _STRIPES = 64

    def __init__(self, inner: LLM, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        # Threads asking the same question at once wait for the first answer instead of all paying.
        self._stripes = [threading.Lock() for _ in range(self._STRIPES)]

    def complete(self, request: LLMRequest) -> Completion:
        key = request_key(self.name, request)
        started = time.perf_counter()
        hit = self.cache.get(key)
        if hit is None:
            with self._stripes[int(key[:8], 16) % self._STRIPES]:
                hit = self.cache.get(key)
                if hit is None:
                    completion = self.inner.complete(request)
                    self.cache.put(key, self.name, request, completion.model_copy(update={"cached": False}))
                    return completion
        return hit.model_copy(update={"cached": True, "latency": time.perf_counter() - started})

    def __getattr__(self, attribute: str):
        if attribute == "inner":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)
