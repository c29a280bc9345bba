"""The report of a run over many pages reads only the first rows of its dataset, and says so."""

from __future__ import annotations

import json

import pytest

from scrapesmith.io import count_rows, read_rows, write_rows
from scrapesmith.report.load import PROFILED_ROWS, load_run_record


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_large_dataset_is_profiled_on_its_first_rows_and_counted_whole(tmp_path, suffix):
    total = PROFILED_ROWS + 7
    dataset = write_rows(({"name": f"item {n}", "source_url": f"http://shop/{n}"} for n in range(total)),
                         tmp_path / f"items{suffix}")
    record = tmp_path / "items.run.json"
    record.write_text(json.dumps({"kind": "run", "title": "items", "dataset": dataset.name, "failures": []}))
    report = load_run_record(record)
    assert len(report.rows) == PROFILED_ROWS and report.row_count == total == count_rows(dataset)
    assert f"columns profiled on the first {PROFILED_ROWS:,} of {total:,} rows" in report.notes
    assert [row["name"] for row in read_rows(dataset, limit=3)] == ["item 0", "item 1", "item 2"]
