"""Imports every command module so its commands register on the typer apps."""

from scrapesmith.cli import pending  # noqa: F401
from scrapesmith.cli import fetch  # noqa: F401
from scrapesmith.cli import demo  # noqa: F401
from scrapesmith.cli import sites  # noqa: F401
from scrapesmith.cli import induce  # noqa: F401
from scrapesmith.cli import llm  # noqa: F401
from scrapesmith.cli import bench_dom  # noqa: F401
from scrapesmith.cli import insta  # noqa: F401
from scrapesmith.cli import lists  # noqa: F401
from scrapesmith.cli import browser  # noqa: F401
from scrapesmith.cli import collect  # noqa: F401
