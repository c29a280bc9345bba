"""The cost ledger: one entry per model call (stage, tokens, latency, cache hit, estimated cost).

Capabilities either pass a :class:`Ledger` down explicitly or open one with :func:`use_ledger`; every
LLM built by ``resolve_llm`` records into the ledger current at call time, falling back to a
process-wide one, so no call goes unrecorded. :func:`attribute_to` tags the calls made while producing
one output row, which is how ``scrapesmith llm ledger`` reports cost per row.

Costs are estimates from a price table in US dollars per million tokens. The built-in table holds a few
public list prices; ``SCRAPESMITH_LLM_PRICES`` (a JSON file ``{"model": {"input": x, "output": y}}``) or
``Ledger(prices=...)`` overrides them. Local and scripted calls cost nothing, and so do cache hits.
A request the model was never asked because its schema gives no usable grammar (:class:`GrammarError`)
is an entry too, with its ``error`` and no tokens, counted under ``errors`` rather than ``calls``.
"""

from __future__ import annotations

import contextvars
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from scrapesmith.llm.views import Completion, GrammarError, LLMError, LLMRequest

FREE_PROVIDERS = frozenset({"local", "scripted", "none"})

# US dollars per million tokens (input, output): public list prices, an estimate only.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
}


class PriceTable:
    """Looks up a model's price by exact name, then by the longest known prefix (dated snapshots)."""

    def __init__(self, prices: dict[str, tuple[float, float]] | None = None) -> None:
        self.prices = dict(DEFAULT_PRICES if prices is None else prices)

    @classmethod
    def from_env(cls) -> PriceTable:
        table = cls()
        path = os.environ.get("SCRAPESMITH_LLM_PRICES")
        if path:
            table.prices.update(load_prices(Path(path)))
        return table

    def lookup(self, model: str) -> tuple[float, float] | None:
        if model in self.prices:
            return self.prices[model]
        prefixes = [name for name in self.prices if model.startswith(name)]
        return self.prices[max(prefixes, key=len)] if prefixes else None

    def cost(self, provider: str, model: str, input_tokens: int, output_tokens: int) -> float | None:
        """Dollars for one call; ``None`` when the model has no known price."""
        if provider in FREE_PROVIDERS:
            return 0.0
        price = self.lookup(model)
        if price is None:
            return None
        return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000


def load_prices(path: Path) -> dict[str, tuple[float, float]]:
    try:
        raw = json.loads(path.read_text())
        return {model: (float(p["input"]), float(p["output"])) for model, p in raw.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LLMError(f"cannot read the price table {path}: {exc}") from exc


class LedgerEntry(BaseModel):
    stage: str
    provider: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    latency: float = 0.0
    cached: bool = False
    cost: float = 0.0
    priced: bool = True
    row: str | None = None
    error: str | None = None
    time: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))


class LedgerTotals(BaseModel):
    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    latency: float = 0.0
    cost: float = 0.0
    unpriced_calls: int = 0
    errors: int = 0

    def add(self, entry: LedgerEntry) -> None:
        if entry.error is not None:
            self.errors += 1
            return
        self.calls += 1
        self.cache_hits += int(entry.cached)
        self.input_tokens += entry.input_tokens
        self.output_tokens += entry.output_tokens
        self.latency += entry.latency
        self.cost += entry.cost
        self.unpriced_calls += int(not entry.priced)


class _LedgerFile(BaseModel):
    entries: list[LedgerEntry]
    totals: LedgerTotals | None = None
    by_stage: dict[str, LedgerTotals] | None = None


class Ledger:
    """An append-only, thread-safe list of :class:`LedgerEntry` with per-stage and per-row totals."""

    def __init__(self, prices: PriceTable | None = None, entries: list[LedgerEntry] | None = None) -> None:
        self.prices = prices or PriceTable.from_env()
        self.entries: list[LedgerEntry] = list(entries or [])
        self._lock = threading.Lock()

    def record(self, llm_name: str, request: LLMRequest, completion: Completion) -> LedgerEntry:
        provider, _, configured_model = llm_name.partition(":")
        model = completion.model or configured_model or provider
        cost = self.prices.cost(provider, model, completion.input_tokens, completion.output_tokens)
        entry = LedgerEntry(
            stage=request.stage,
            provider=provider,
            model=model,
            input_tokens=completion.input_tokens,
            output_tokens=completion.output_tokens,
            latency=completion.latency,
            cached=completion.cached,
            cost=0.0 if completion.cached or cost is None else cost,
            priced=completion.cached or cost is not None,
            row=current_row(),
        )
        with self._lock:
            self.entries.append(entry)
        return entry

    def record_failure(self, llm_name: str, request: LLMRequest, error: Exception) -> LedgerEntry:
        """A request that never reached the model (its grammar is unusable): a note, no tokens, no cost."""
        provider, _, model = llm_name.partition(":")
        entry = LedgerEntry(stage=request.stage, provider=provider, model=model or provider,
                            row=current_row(), error=str(error).splitlines()[0] if str(error) else type(error).__name__)
        with self._lock:
            self.entries.append(entry)
        return entry

    def totals(self) -> LedgerTotals:
        totals = LedgerTotals()
        for entry in list(self.entries):
            totals.add(entry)
        return totals

    def by_stage(self) -> dict[str, LedgerTotals]:
        return self._group(lambda entry: entry.stage)

    def by_row(self) -> dict[str, LedgerTotals]:
        """Totals per attributed output row; calls made outside any row are left out."""
        return self._group(lambda entry: entry.row)

    def _group(self, key) -> dict[str, LedgerTotals]:
        groups: dict[str, LedgerTotals] = {}
        for entry in list(self.entries):
            name = key(entry)
            if name is not None:
                groups.setdefault(name, LedgerTotals()).add(entry)
        return groups

    def save(self, path: Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        document = _LedgerFile(entries=list(self.entries), totals=self.totals(), by_stage=self.by_stage())
        path.write_text(document.model_dump_json(indent=2) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> Ledger:
        path = Path(path)
        if path.is_dir():
            path = path / "ledger.json"
        try:
            document = _LedgerFile.model_validate_json(path.read_text())
        except OSError as exc:
            raise LLMError(f"no ledger at {path}: {exc.strerror or exc}") from exc
        except ValueError as exc:
            raise LLMError(f"{path} is not a scrapesmith ledger: {str(exc).splitlines()[0]}") from exc
        return cls(entries=document.entries)

    def __len__(self) -> int:
        return len(self.entries)


_current_ledger: contextvars.ContextVar[Ledger | None] = contextvars.ContextVar("ledger", default=None)
_current_row: contextvars.ContextVar[str | None] = contextvars.ContextVar("ledger_row", default=None)
_process_ledger: Ledger | None = None
_process_lock = threading.Lock()


def process_ledger() -> Ledger:
    """The ledger that receives calls made outside any :func:`use_ledger` block."""
    global _process_ledger
    with _process_lock:
        if _process_ledger is None:
            _process_ledger = Ledger()
        return _process_ledger


def current_ledger() -> Ledger:
    ledger = _current_ledger.get()
    return process_ledger() if ledger is None else ledger


@contextmanager
def use_ledger(ledger: Ledger) -> Iterator[Ledger]:
    """Record every call made in this block (in this thread or context) into ``ledger``."""
    token = _current_ledger.set(ledger)
    try:
        yield ledger
    finally:
        _current_ledger.reset(token)


def current_row() -> str | None:
    return _current_row.get()


@contextmanager
def attribute_to(row: str | int) -> Iterator[None]:
    """Attribute the calls made in this block to output row ``row``."""
    token = _current_row.set(str(row))
    try:
        yield
    finally:
        _current_row.reset(token)


class LedgeredLLM:
    """Wraps an LLM so every completion (including cache hits) lands in a ledger.

    With no explicit ledger it records into the ledger current at call time, so one LLM object can be
    shared by runs that each open their own :func:`use_ledger` block.
    """

    def __init__(self, inner, ledger: Ledger | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.ledger = ledger

    def complete(self, request: LLMRequest) -> Completion:
        ledger = current_ledger() if self.ledger is None else self.ledger
        try:
            completion = self.inner.complete(request)
        except GrammarError as exc:
            ledger.record_failure(self.name, request, exc)
            raise
        ledger.record(self.name, request, completion)
        return completion

    def __getattr__(self, attribute: str):
        if attribute == "inner":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)
