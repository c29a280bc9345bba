"""collect (AutoData): turn one instruction into a validated dataset with a team of agents and OHCache.

A plan agent splits the instruction, web and tool agents find where the records are and try list, table
and REST extraction there, a blueprint agent picks the access path, an engineer writes ``program.py``
on scrapesmith's runtime, the sandbox runs it and the validation agent checks the data. The program
reruns with no LLM (``scrapesmith run RUN_DIR/program.py``).

``collect`` is imported lazily: the sandboxed program imports :mod:`scrapesmith.collect.runtime` and
should not pay for the agents.
"""

from __future__ import annotations

import importlib
from typing import Any

#: each public name and the module that defines it, imported on first use
_DEFINED_IN = {
    "CollectionPages": "pages",
    "check_runnable": "program",
    "heal_collection_program": "heal",
    "CollectionHealError": "heal",
    "CollectResult": "views",
    "HostsNotAllowed": "program",
    "PARTIAL_DATASET": "runtime",
    "ReadRootsNotGranted": "program",
    "RerunInterrupted": "program",
    "SandboxLimits": "sandbox",
    "check_rerun": "drift",
    "collect": "service",
    "declared_hosts": "program",
    "declared_roots": "program",
    "live_progress": "progress",
    "record_drift": "drift",
    "rerun_program": "program",
    "run_in_sandbox": "sandbox",
    "run_program_file": "program",
    "undeclared_hosts": "program",
    "unsure_lines": "fields",
}

__all__ = [
    "PARTIAL_DATASET",
    "CollectResult",
    "CollectionHealError",
    "CollectionPages",
    "HostsNotAllowed",
    "ReadRootsNotGranted",
    "RerunInterrupted",
    "SandboxLimits",
    "check_rerun",
    "check_runnable",
    "collect",
    "declared_hosts",
    "declared_roots",
    "heal_collection_program",
    "live_progress",
    "record_drift",
    "rerun_program",
    "run_in_sandbox",
    "run_program_file",
    "undeclared_hosts",
    "unsure_lines",
]


def __getattr__(name: str) -> Any:
    if name not in _DEFINED_IN:
        raise AttributeError(f"module 'scrapesmith.collect' has no attribute {name!r}")
    return getattr(importlib.import_module(f"scrapesmith.collect.{_DEFINED_IN[name]}"), name)
