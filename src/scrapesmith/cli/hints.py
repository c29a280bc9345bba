"""What a service's error means on the command line: the flag that answers it.

A service says what is wrong in its own terms, because it does not know which command called it or which
flags that command has (a run directory is "unfinished", not "missing --resume"). The command line knows, so
it adds the flag here when it prints the error: one table from error class to the line shown, read in order
(a subclass before its parent). An error not in the table is shown as the service wrote it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from scrapesmith.bench.swde import SwdeDataMissing
from scrapesmith.collect import HostsNotAllowed, ReadRootsNotGranted
from scrapesmith.collect.agents import NoStartingPoint
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta import PiiScrubberMissing
from scrapesmith.lists import NeedsBrowser, NoListFound, NotScalable
from scrapesmith.llm import ModelNotInstalled, NoModelConfigured, UnknownModelSetting
from scrapesmith.scale import EarlierRunUnusable, ResumeMismatch, UnfinishedRun
from scrapesmith.web import PrivateAddress, RobotsDisallowed


def _flags(flag: str, values: Sequence[str]) -> str:
    return " ".join(f"{flag} {shlex.quote(value)}" for value in values)


HINTS: list[tuple[type[ScrapesmithError], Callable[[Any, str], str]]] = [
    (RobotsDisallowed, lambda exc, line: f"{line}; pass --no-robots to ignore it"),
    (PrivateAddress, lambda exc, line: f"{line} (--allow-host {exc.host})"),
    (NoModelConfigured, lambda exc, line: f"{line}; set SCRAPESMITH_LLM or pass --llm (e.g. local, openai:<model>)"),
    (UnknownModelSetting, lambda exc, line: f"{line} (in SCRAPESMITH_LLM or --llm)"),
    (ModelNotInstalled, lambda exc, line: f"{line}: run 'scrapesmith llm install --size {exc.size}'"),
    (NeedsBrowser, lambda exc, line: f"{line}; use --runtime browser"),
    (NoListFound, lambda exc, line: f"{line}; try --runtime browser" if exc.drawn_by_scripts else line),
    (NotScalable, lambda exc, line: f"{line} with --start-url"),
    (NoStartingPoint, lambda exc, line: f"{line} (--from)"),
    (HostsNotAllowed, lambda exc, line: f"{line}: pass {_flags('--allow-host', exc.hosts)} if you "
     "trust them"),
    (ReadRootsNotGranted, lambda exc, line: f"{line}: pass {_flags('--allow-read', exc.roots)} if "
     "you trust it to read them"),
    (PiiScrubberMissing, lambda exc, line: f"{line} (or pass --no-scrub-pii)"),
    (UnfinishedRun, lambda exc, line: f"{line} (--resume continues it)"),
    (ResumeMismatch, lambda exc, line: f"{line}; without --resume, start a new run (or one --since this run)"),
    (EarlierRunUnusable, lambda exc, line: f"--since {line}"),
    (SwdeDataMissing, lambda exc, line: f"{line}; pass --pages DIR (and --groundtruth DIR)"),
]


def explain(exc: ScrapesmithError) -> str:
    """The one line the command line prints for ``exc``: the service's first line, with the flag that
    answers it where there is one."""
    line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    for error_class, hint in HINTS:
        if isinstance(exc, error_class):
            return hint(exc, line)
    return line
