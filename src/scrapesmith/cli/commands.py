"""Imports every command module so its commands register on the typer apps."""

from scrapesmith.cli import pending  # noqa: F401
