"""Imports every command module so its commands register on the typer apps."""

from scrapesmith.cli import (
    bench_dom,  # noqa: F401
    browser,  # noqa: F401
    collect,  # noqa: F401
    crawl,  # noqa: F401
    demo,  # noqa: F401
    fetch,  # noqa: F401
    induce,  # noqa: F401
    insta,  # noqa: F401
    lists,  # noqa: F401
    llm,  # noqa: F401
    report,  # noqa: F401
    scale,  # noqa: F401
    sites,  # noqa: F401
)
