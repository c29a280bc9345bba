"""The exception tree drawn in ``scrapesmith.errors`` names every error class, under its real parent."""

from __future__ import annotations

import importlib
import pkgutil
import re

import scrapesmith
from scrapesmith import errors
from scrapesmith.errors import ScrapesmithError


def drawn_tree() -> dict[str, tuple[str | None, str]]:
    """class name -> (parent drawn above it, module drawn beside it), read from the module docstring."""
    drawn: dict[str, tuple[str | None, str]] = {}
    parents: list[str] = []
    for line in (errors.__doc__ or "").splitlines():
        match = re.fullmatch(r"( {4,})(\w+)(?: \[([\w.]+)\])?", line)
        if not match:
            continue
        depth = len(match.group(1)) // 4 - 1
        parents[depth:] = [match.group(2)]
        drawn[match.group(2)] = (parents[depth - 1] if depth else None, match.group(3) or "errors")
    return drawn


def every_error_class() -> dict[str, type]:
    for module in pkgutil.walk_packages(scrapesmith.__path__, "scrapesmith."):
        if not module.name.startswith(("scrapesmith.cli", "scrapesmith.__main__")):
            importlib.import_module(module.name)
    found: dict[str, type] = {}
    todo = [ScrapesmithError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def test_the_drawn_tree_names_every_error_under_its_parent() -> None:
    drawn = drawn_tree()
    classes = every_error_class()
    assert set(drawn) == set(classes)
    for name, cls in classes.items():
        if cls is ScrapesmithError:
            continue
        parent, module = drawn[name]
        assert parent == cls.__mro__[1].__name__, name
        assert "scrapesmith." + module == cls.__module__, name
