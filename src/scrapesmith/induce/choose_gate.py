"""Where ``--method choose`` may ask the model: the paths the development sites say it helps on (issue 41).

The chooser reaches the model by one of a few paths (no label names the field and nothing was found; no label
names it and the evidence is weak; the evidence is split between close candidates). On SWDE the 1.5B model
helped on some paths and made others worse than the evidence alone (a warranty row taken for an engine, a
print timestamp for a publication date). ``bench swde-choose-gate`` runs the chooser with every path open and
the evidence alone on the same sites, counts per path how many fields the model's choice turned right and
wrong, and writes the paths where it did more good than harm, and harmed no site when fitted without it, to
``data/choose_gate.json``; every other path keeps the evidence's choice and says so. The same fitting left one site out at a time gives the held-out
figure (BENCHMARKS.md). No path names a site, a vertical or an attribute.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

GATE_PATH = Path(__file__).resolve().parent / "data" / "choose_gate.json"


@lru_cache(maxsize=1)
def shipped_gate() -> frozenset[str] | None:
    """The paths the shipped gate opens, or None (every path open) when no gate file is shipped."""
    if not GATE_PATH.is_file():
        return None
    return frozenset(json.loads(GATE_PATH.read_text(encoding="utf-8"))["open"])


_UNSET, _SHIPPED = "unset", "shipped"
_GATE: ContextVar[frozenset[str] | None | str] = ContextVar("choose_gate", default=_UNSET)


@contextmanager
def use_gate(open_paths: Iterable[str] | None) -> Iterator[None]:
    """Open only ``open_paths`` inside the block (None: every path, as when the gate is fitted)."""
    token = _GATE.set(None if open_paths is None else frozenset(open_paths))
    try:
        yield
    finally:
        _GATE.reset(token)


@contextmanager
def induce_gate() -> Iterator[None]:
    """The shipped gate inside the block, unless a caller chose one (:func:`use_gate`). ``induce --method
    choose`` runs under it: the gate was fitted on induce's fields. Other callers of the chooser (heal's
    relocation, not measured against it) ask on every path as before."""
    if _GATE.get() != _UNSET:
        yield
        return
    token = _GATE.set(_SHIPPED)
    try:
        yield
    finally:
        _GATE.reset(token)


def gate_open(path: str) -> bool:
    """May the chooser ask the model on ``path``?"""
    chosen = _GATE.get()
    if chosen == _UNSET:
        return True
    paths = shipped_gate() if chosen == _SHIPPED else chosen
    return paths is None or path in paths  # type: ignore[operator]
