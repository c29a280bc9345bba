"""Datasets on disk: CSV, JSONL and Parquet writers and readers (:mod:`~scrapesmith.io.datasets`) typed by
a column schema (:mod:`~scrapesmith.io.schema`)."""

from scrapesmith.io.datasets import (
    FORMATS,
    count_rows,
    iter_rows,
    read_json_lines,
    read_rows,
    typed_rows,
    write_row_chunks,
    write_rows,
)
from scrapesmith.io.schema import (
    COLUMN_TYPES,
    PROVENANCE_COLUMNS,
    PROVENANCE_TYPES,
    Schema,
    SchemaError,
    column_order,
    infer_schema,
    infer_type,
    is_empty,
    text_value,
    timestamp,
    value_type,
)

__all__ = ["COLUMN_TYPES", "FORMATS", "PROVENANCE_COLUMNS", "PROVENANCE_TYPES", "Schema", "SchemaError",
           "column_order", "count_rows", "infer_schema", "infer_type", "is_empty", "iter_rows",
           "read_json_lines", "read_rows", "text_value", "timestamp", "typed_rows", "value_type",
           "write_row_chunks", "write_rows"]
