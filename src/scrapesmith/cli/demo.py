"""``scrapesmith demo``: run the product end to end on the local demo web."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from scrapesmith.cli import app
from scrapesmith.cli.options import LLMOption, NoCacheOption


@app.command()
def demo(
    runs: Annotated[Path, typer.Option(help="Directory that receives the demo's run directory.")] = Path("runs"),
    llm: LLMOption = None,
    no_cache: NoCacheOption = False,
) -> None:
    """Serve the local demo web on 127.0.0.1 and run the main jobs on it (offline, a few minutes)."""
    from scrapesmith.demo import run_demo

    run_demo(Console(), runs, llm, llm_cache=not no_cache)
