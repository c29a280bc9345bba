"""Datasets on disk: CSV, JSONL and Parquet writers and readers (:mod:`~scrapesmith.io.datasets`) typed by
a column schema (:mod:`~scrapesmith.io.schema`), and database tables upserted by key
(:mod:`~scrapesmith.io.database`: SQLite, DuckDB, PostgreSQL)."""

from scrapesmith.io.database import (
    DATABASE_SCHEMES,
    DEFAULT_BATCH,
    SEEN_COLUMNS,
    DatabaseSink,
    SinkError,
    SinkResult,
    is_database_url,
    load_dataset,
    read_table,
    write_database,
)
from scrapesmith.io.datasets import (
    FORMATS,
    count_rows,
    dataset_schema,
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

__all__ = ["COLUMN_TYPES", "DATABASE_SCHEMES", "DEFAULT_BATCH", "FORMATS", "PROVENANCE_COLUMNS", "PROVENANCE_TYPES",
           "SEEN_COLUMNS", "DatabaseSink", "Schema", "SchemaError", "SinkError", "SinkResult", "column_order",
           "count_rows", "dataset_schema", "infer_schema", "infer_type", "is_database_url", "is_empty", "iter_rows",
           "load_dataset", "read_json_lines", "read_rows", "read_table", "text_value", "timestamp", "typed_rows",
           "value_type", "write_database", "write_row_chunks", "write_rows"]
