"""Command-line options shared by every command that talks to a model.

Use them as parameter annotations so each command spells ``--llm`` and ``--no-cache`` the same way::

    @app.command()
    def induce(..., llm: LLMOption = None, no_cache: NoCacheOption = False) -> None:
        model = llm_from_options(llm, no_cache)   # None means: take the heuristic path
"""

from __future__ import annotations

from typing import Annotated

import typer

from scrapesmith.llm.client import SPEC_HELP, resolve_llm
from scrapesmith.llm.ledger import Ledger
from scrapesmith.llm.types import LLM

LLMOption = Annotated[
    str | None,
    typer.Option(
        "--llm",
        help=f"Model to use: {SPEC_HELP}. Default: SCRAPESMITH_LLM, else an OpenAI-compatible endpoint if "
        "OPENAI_BASE_URL/OPENAI_API_KEY is set, else the embedded model if installed, else none.",
        show_default=False,
        metavar="SPEC",
    ),
]

NoCacheOption = Annotated[
    bool,
    typer.Option("--no-cache", help="Bypass the LLM response cache (every request reaches the model)."),
]


def llm_from_options(llm: str | None, no_cache: bool = False, ledger: Ledger | None = None) -> LLM | None:
    """The model the options select, cached unless ``--no-cache``; ``None`` for ``none``."""
    return resolve_llm(llm, cache=not no_cache, ledger=ledger)
