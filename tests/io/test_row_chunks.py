"""A dataset written chunk by chunk gets one column order and one type per column over every chunk."""

from __future__ import annotations

import pyarrow.parquet as pq

from scrapesmith.io import read_rows
from scrapesmith.io.datasets import write_row_chunks


def _chunks():
    yield [{"price": 3, "note": None, "source_url": "http://a/1"}]
    yield [{"price": 2.5, "note": None, "source_url": "http://a/2"}]
    yield [{"price": None, "note": "late", "extra": "x", "source_url": "http://a/3"}]


def test_chunks_widen_to_one_type_and_an_empty_chunk_does_not_vote(tmp_path):
    path, rows = write_row_chunks(_chunks, tmp_path / "items.parquet")
    schema = pq.read_schema(path)
    assert rows == 3 and schema.names == ["price", "note", "extra", "source_url"]
    assert str(schema.field("price").type) == "double" and str(schema.field("note").type) == "string"
    assert [row["price"] for row in read_rows(path)] == [3.0, 2.5, None]
    assert not list(tmp_path.glob(".*partial"))


def test_a_csv_written_in_chunks_has_every_column_in_its_header(tmp_path):
    path, _ = write_row_chunks(_chunks, tmp_path / "items.csv")
    assert path.read_text(encoding="utf-8").splitlines()[0] == "price,note,extra,source_url"
