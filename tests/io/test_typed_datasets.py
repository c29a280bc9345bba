"""Typed datasets: one schema types CSV, JSONL and Parquet alike; provenance columns come last in one order."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pyarrow.parquet as pq
import pytest

from scrapesmith.io import PROVENANCE_COLUMNS, infer_schema, read_rows, timestamp, write_rows
from scrapesmith.io.schema import SchemaError, coerce, conform

ROWS = [
    {"source_url": "http://x/1", "title": "A", "authors": ["Kate Douglas", "Li Wei"], "year": "2021",
     "win_pct": ".415", "volume": "1,234", "day": "2024-01-02", "fetched_at": "2026-11-25T10:00:00Z",
     "program_id": "p1", "error": None},
    {"source_url": "http://x/2", "title": "B", "authors": ["Ann Lee"], "year": "2022", "win_pct": "0.5",
     "volume": "17", "day": "2024-01-03", "fetched_at": "2026-11-25T10:00:01+00:00", "program_id": "p1",
     "error": None, "detail_url": "http://x/d/2"},
]
TYPED = {"title": "string", "authors": "list", "year": "integer", "win_pct": "number", "volume": "integer",
         "day": "date", "source_url": "string", "detail_url": "string", "fetched_at": "timestamp",
         "program_id": "string", "error": "string"}


def test_types_are_inferred_from_the_values():
    assert infer_schema(ROWS) == TYPED


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_typed_round_trip(tmp_path, suffix):
    path = write_rows(ROWS, tmp_path / f"data{suffix}")
    rows = read_rows(path, TYPED)
    assert list(rows[0]) == ["title", "authors", "year", "win_pct", "volume", "day", *PROVENANCE_COLUMNS]
    first = rows[0]
    assert first["authors"] == ["Kate Douglas", "Li Wei"] and first["year"] == 2021 and first["volume"] == 1234
    assert first["win_pct"] == 0.415 and first["day"] == date(2024, 1, 2)
    assert first["fetched_at"] == datetime(2026, 11, 25, 10, 0, tzinfo=UTC) and first["error"] is None
    assert rows[1]["detail_url"] == "http://x/d/2" and rows[0]["detail_url"] is None


def test_jsonl_holds_numbers_and_lists_not_json_strings(tmp_path):
    path = write_rows(ROWS, tmp_path / "data.jsonl")
    first = json.loads(path.read_text().splitlines()[0])
    assert first["authors"] == ["Kate Douglas", "Li Wei"] and first["year"] == 2021 and first["win_pct"] == 0.415
    assert first["fetched_at"] == "2026-11-25T10:00:00+00:00" and first["day"] == "2024-01-02"


def test_parquet_columns_are_typed_and_error_is_a_string(tmp_path):
    schema = pq.read_schema(write_rows(ROWS, tmp_path / "data.parquet"))
    kinds = {name: str(schema.field(name).type) for name in schema.names}
    assert kinds["authors"].startswith("list<") and kinds["authors"].endswith("string>")
    assert kinds["year"] == "int64" and kinds["win_pct"] == "double" and kinds["day"] == "date32[day]"
    assert kinds["fetched_at"].startswith("timestamp[") and kinds["fetched_at"].endswith("tz=UTC]")
    assert kinds["error"] == "string"


def test_a_declared_schema_wins_and_a_misfit_widens_never_drops(tmp_path):
    rows = [{"code": "007"}, {"code": "12"}]
    assert read_rows(write_rows(rows, tmp_path / "a.jsonl", {"code": "string"}))[0]["code"] == "007"
    typed, applied = conform([{"n": "1"}, {"n": "2.5"}, {"d": "x"}], {"n": "integer"})
    assert applied == {"n": "number"} and typed[1]["n"] == 2.5
    typed, applied = conform([{"n": "1"}, {"n": "n/a"}], {"n": "integer"})
    assert applied == {"n": "string"} and typed[1]["n"] == "n/a"
    with pytest.raises(SchemaError):
        coerce("abc", "date")


def test_one_timestamp_format():
    assert timestamp(datetime(2026, 1, 2, 3, 4, 5, 678, tzinfo=UTC)) == "2026-01-02T03:04:05+00:00"


def test_long_digit_strings_are_identifiers_not_numbers():
    assert infer_schema([{"isbn_13": "9784993417687", "views": "1,234,567", "n": "123456789"}]) == {
        "isbn_13": "string", "views": "integer", "n": "integer"}
