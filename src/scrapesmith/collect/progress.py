"""Showing a collection's progress live: the status line and one printed line per agent step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from scrapesmith.collect.agents.base import Progress


def live_progress(console: Console, status: Any) -> Progress:
    """A ``progress(agent, step, rows)`` callback for :func:`scrapesmith.collect.service.collect`."""

    def show(agent: str, step: str, rows: int) -> None:
        status.update(f"[bold]{agent}[/]: {step} — {rows} rows so far")
        console.print(f"  {agent:<10} {step}", highlight=False, markup=False)

    return show
