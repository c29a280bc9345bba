"""collect (AutoData): turn one instruction into a validated dataset with a team of agents and OHCache.

Import the workflow lazily: the sandbox child imports :mod:`scrapesmith.collect.guard` and
:mod:`scrapesmith.collect.runtime` and should not pay for the agents.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("collect", "CollectResult"):
        from scrapesmith.collect import workflow

        return getattr(workflow, name)
    raise AttributeError(name)


__all__ = ["CollectResult", "collect"]
