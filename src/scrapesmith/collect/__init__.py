"""collect (AutoData): turn one instruction into a validated dataset with a team of agents and OHCache.

A plan agent splits the instruction, web and tool agents find where the records are and try list, table
and REST extraction there, a blueprint agent picks the access path, an engineer writes ``program.py``
on scrapesmith's runtime, the sandbox runs it and the validation agent checks the data. The program
reruns with no LLM (``scrapesmith run RUN_DIR/program.py``).

``collect`` is imported lazily: the sandboxed program imports :mod:`scrapesmith.collect.runtime` and
should not pay for the agents.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CollectResult",
    "collect",
]


def __getattr__(name: str) -> Any:
    if name == "collect":
        from scrapesmith.collect.service import collect

        return collect
    if name == "CollectResult":
        from scrapesmith.collect.views import CollectResult

        return CollectResult
    raise AttributeError(name)
