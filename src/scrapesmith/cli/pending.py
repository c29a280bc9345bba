"""Commands whose capabilities have not landed yet: each fails with a clear one-line message.

A capability that lands deletes its entry here and registers its real command in its own module.
"""

from __future__ import annotations

from scrapesmith.cli import app, bench_app, insta_app
from scrapesmith.errors import NotAvailableYet

PENDING = {
    app: {},
    insta_app: {},
    bench_app: {},
}


def _register(typer_app, name: str, summary: str, issue: int) -> None:
    def not_yet(ctx_args: list[str] | None = None) -> None:
        raise NotAvailableYet(f"'{name}' is not available yet (issue {issue}: {summary})")

    not_yet.__doc__ = f"{summary.capitalize()} (not available yet, issue {issue})."
    typer_app.command(
        name, context_settings={"allow_extra_args": True, "ignore_unknown_options": True}
    )(not_yet)


for typer_app, commands in PENDING.items():
    for name, (summary, issue) in commands.items():
        _register(typer_app, name, summary, issue)
