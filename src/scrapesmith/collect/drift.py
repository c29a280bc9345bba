"""Drift for a collection program: does a rerun's dataset still look like the one the program was made with?

A collection's run directory keeps the dataset its ``program.py`` wrote when it was made, so that dataset
*is* the program's forged output: its profile (:mod:`scrapesmith.drift`; induce's value kinds) is drawn from
it and the rerun's dataset is checked against it, column by column (provenance columns aside). The result
goes into the rerun's record (``rerun.run.json``, under ``"drift"``) and its report.
"""

from __future__ import annotations

import json
from pathlib import Path

from scrapesmith.collect.readback import dataset_rows
from scrapesmith.collect.runtime import DATASET_FILES
from scrapesmith.collect.sandbox import SandboxLimits
from scrapesmith.collect.views import Rerun
from scrapesmith.drift import DriftReport, compare, profile_rows
from scrapesmith.induce import kind_of
from scrapesmith.io import PROVENANCE_COLUMNS, read_rows
from scrapesmith.report import write_report

PROFILED_ROWS = 10_000


def check_rerun(rerun: Rerun) -> DriftReport | None:
    """The rerun's rows against the collection's own dataset; None when either is missing."""
    run_dir = rerun.rerun_dir.parent.parent
    forged = next((run_dir / name for name in DATASET_FILES if (run_dir / name).is_file()), None)
    produced = rerun.rerun_dir / "dataset.csv"
    if forged is None or not produced.is_file():
        return None
    made = read_rows(forged, limit=PROFILED_ROWS)
    columns = [c for c in (made[0] if made else {}) if c not in PROVENANCE_COLUMNS]
    now = dataset_rows(produced, SandboxLimits().dataset_mb * 2**20, max_rows=PROFILED_ROWS)
    return compare(profile_rows(made, columns, kind_of), now, kind_of)


def record_drift(rerun: Rerun, report: DriftReport) -> Path:
    """Add the check to ``rerun.run.json`` and draw the report again; return the report's path."""
    record_path = rerun.rerun_dir / "rerun.run.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["drift"] = report.model_dump(mode="json")
    record_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return write_report(record_path)
