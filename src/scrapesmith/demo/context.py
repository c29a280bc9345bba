"""What every demo step receives, and where the demo's run directory goes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console

from scrapesmith.sites import DemoServer
from scrapesmith.web import Fetcher


@dataclass
class DemoContext:
    """What every demo step receives: the running sites, a polite fetcher, the run directory, the console."""

    server: DemoServer
    fetcher: Fetcher
    run_dir: Path
    console: Console
    llm_spec: str | None = None
    llm_cache: bool = True
    notes: list[str] = field(default_factory=list)


DemoStep = Callable[[DemoContext], None]


def new_run_dir(root: Path = Path("runs")) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    run_dir = root / f"demo-{stamp}"
    run_dir.mkdir(parents=True, exist_ok=True)
    return run_dir
