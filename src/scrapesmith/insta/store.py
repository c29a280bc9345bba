"""Sharded, append-only storage of per-site results: what makes a pipeline run resumable.

Each finished site is one JSON line, flushed and fsynced before the next, in ``shards/part-*.jsonl``. A
crash loses at most the site in flight; a half-written last line is skipped on reading. Rerunning the
same command reads the shards, skips sites already recorded and appends to a fresh shard.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scrapesmith.insta.views import SiteResult
from scrapesmith.io import read_json_lines, write_rows

SHARD_SIZE = 500


class ResultStore:
    def __init__(self, out_dir: Path, shard_size: int = SHARD_SIZE) -> None:
        self.out_dir = Path(out_dir)
        self.shard_dir = self.out_dir / "shards"
        self.shard_size = shard_size
        self._session = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        self._shard_index = 0
        self._lines_in_shard = 0
        self.torn_lines = 0

    def shards(self) -> list[Path]:
        return sorted(self.shard_dir.glob("part-*.jsonl"))

    def results(self) -> Iterator[SiteResult]:
        """Every recorded result, oldest first; torn lines (whatever the byte) are skipped and counted in
        :attr:`torn_lines`."""
        self.torn_lines = 0
        for shard in self.shards():
            records, torn = read_json_lines(shard)
            self.torn_lines += torn
            for record in records:
                try:
                    yield SiteResult.model_validate(record)
                except ValidationError:
                    self.torn_lines += 1

    def latest(self) -> dict[str, SiteResult]:
        """The last result per site: a retried failure replaces the failure."""
        return {result.site: result for result in self.results()}

    def finished(self, retry_failed: bool = False) -> set[str]:
        return {site for site, result in self.latest().items() if not (retry_failed and result.status == "failed")}

    def append(self, result: SiteResult) -> None:
        if self._lines_in_shard >= self.shard_size:
            self._shard_index += 1
            self._lines_in_shard = 0
        self.shard_dir.mkdir(parents=True, exist_ok=True)
        path = self.shard_dir / f"part-{self._session}-{self._shard_index:05d}.jsonl"
        with path.open("a", encoding="utf-8") as handle:
            handle.write(result.model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self._lines_in_shard += 1

    def write_parquet(self) -> Path:
        """One row per site (latest result) with headline columns and the full record as JSON."""
        return write_rows([summary_row(result) for result in self.latest().values()],
                          self.out_dir / "results.parquet")


def summary_row(result: SiteResult) -> dict[str, Any]:
    trajectory, judgement, safety = result.trajectory, result.judgement, result.safety
    return {
        "site": result.site,
        "url": result.url,
        "status": result.status,
        "error": result.error,
        "safety_verdict": safety.verdict if safety else None,
        "safety_category": safety.category if safety else None,
        "safety_reason": safety.reason if safety else None,
        "safety_decided_by": safety.decided_by if safety else None,
        "task": result.proposal.task if result.proposal else None,
        "refined_task": result.refined.proposed_task if result.refined else None,
        "steps": len(trajectory.steps) if trajectory else 0,
        "invalid_steps": trajectory.invalid_steps if trajectory else 0,
        "stop_reason": trajectory.stop_reason if trajectory else None,
        "answer": trajectory.answer if trajectory else None,
        "success": judgement.success if judgement else None,
        "efficiency": judgement.efficiency if judgement else None,
        "self_correction": judgement.self_correction if judgement else None,
        "confidence": judgement.confidence if judgement else None,
        "tasks": sum(task.proposal is not None and task.proposal.task is not None for task in result.per_task()),
        "verified_tasks": sum(task.judgement is not None and task.judgement.succeeded for task in result.per_task()),
        "seconds": result.seconds,
        "llm_calls": result.llm_calls,
        "worker": result.worker,
        "record": json.dumps(result.model_dump(), ensure_ascii=False),
    }
