"""Imports every command module so its commands register on the typer apps."""

from scrapesmith.cli import (
    browser,  # noqa: F401
    collect,  # noqa: F401
    crawl,  # noqa: F401
    demo,  # noqa: F401
    drift,  # noqa: F401
    export,  # noqa: F401
    fetch,  # noqa: F401
    heal,  # noqa: F401
    induce,  # noqa: F401
    insta,  # noqa: F401
    lists,  # noqa: F401
    llm,  # noqa: F401
    report,  # noqa: F401
    run,  # noqa: F401
    scale,  # noqa: F401
    sites,  # noqa: F401
    workflow,  # noqa: F401
)
from scrapesmith.cli.bench import (
    browser as bench_browser,  # noqa: F401
)
from scrapesmith.cli.bench import (
    collect as bench_collect,  # noqa: F401
)
from scrapesmith.cli.bench import (
    dom,  # noqa: F401
    swde,  # noqa: F401
)
from scrapesmith.cli.bench import (
    drift as bench_drift,  # noqa: F401
)
from scrapesmith.cli.bench import (
    fetch as bench_fetch,  # noqa: F401
)
from scrapesmith.cli.bench import (
    insta as bench_insta,  # noqa: F401
)
from scrapesmith.cli.bench import (
    lists as bench_lists,  # noqa: F401
)
from scrapesmith.cli.bench import (
    llm as bench_llm,  # noqa: F401
)
from scrapesmith.cli.bench import (
    scale as bench_scale,  # noqa: F401
)
from scrapesmith.cli.bench import (
    sinks as bench_sinks,  # noqa: F401
)
