"""Database sinks: a dataset's rows into a table of SQLite, DuckDB or PostgreSQL, upserted by a key.

A table is created from the dataset's schema (:mod:`scrapesmith.io.schema`): integers, numbers, booleans,
dates and timestamps get their SQL types, a list column is an array where the database has them
(PostgreSQL, DuckDB) and JSON where it does not (SQLite). Two more columns say when a row was first and last
written (``first_seen``, ``last_seen``); the provenance columns (``source_url``, ``fetched_at``,
``program_id``) are kept as they come.

With a key (``key=("isbn",)``) a row whose key is already in the table updates it in place (``first_seen``
kept), so a rerun changes no row count; without one, rows are appended. Rows go in batches, one transaction
each: a batch that fails is rolled back whole and :class:`SinkError` says which one and how many rows of
earlier batches stay written. Every statement is built by SQLAlchemy with the values bound as parameters;
no SQL text is made from a value.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scrapesmith.errors import ScrapesmithError
from scrapesmith.io.datasets import ROW_GROUP, RowChunks, dataset_schema, iter_rows
from scrapesmith.io.schema import COLUMN_TYPES, PROVENANCE_TYPES, conform, is_empty

DATABASE_SCHEMES = ("sqlite", "duckdb", "postgresql")
SEEN_COLUMNS = ("first_seen", "last_seen")
DEFAULT_BATCH = 1_000


class SinkError(ScrapesmithError):
    """A database sink that cannot be opened or written (the batch that failed was rolled back)."""


def is_database_url(text: str) -> bool:
    """Whether ``text`` names a database this sink writes (``sqlite:///…``, ``duckdb:///…``, ``postgresql://…``)."""
    scheme = text.split("://", 1)[0].split("+", 1)[0].lower() if "://" in text else ""
    return scheme in DATABASE_SCHEMES


@dataclass(frozen=True)
class DatabaseSink:
    """Where rows go: a database URL, a table in it, the key columns rows are upserted by (none: append)."""

    url: str
    table: str
    key: tuple[str, ...] = ()
    batch_size: int = DEFAULT_BATCH

    def __post_init__(self) -> None:
        if not is_database_url(self.url):
            raise SinkError(f"'{_shown(self.url)}' is not a database URL (use sqlite:///PATH, duckdb:///PATH "
                            "or postgresql://USER@HOST/DB)")
        if not self.table.strip():
            raise SinkError("a database sink needs a table name")

    @property
    def shown(self) -> str:
        """The URL as messages show it: any password hidden."""
        return _shown(self.url)


@dataclass
class SinkResult:
    """What a write did: rows written (inserted or updated), rows left out for an empty key, the table's size."""

    table: str
    url: str
    written: int = 0
    batches: int = 0
    keyless: int = 0
    table_rows: int = 0
    keyed: bool = False
    columns: list[str] = field(default_factory=list)

    def summary(self) -> str:
        verb = "upserted" if self.keyed else "appended"
        text = f"{self.written} rows {verb} into {self.table} at {self.url} ({self.table_rows} rows in the table)"
        if self.keyless:
            text += f"; {self.keyless} rows with an empty key were not written"
        return text


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # an unparseable URL is shown without whatever follows its scheme
        return url.split("://", 1)[0] + "://…"


def _engine(url: str):
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3, the driver the db extra installs
    if parsed.get_backend_name() in ("sqlite", "duckdb") and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    try:
        return sa.create_engine(parsed)
    except ImportError as exc:
        raise SinkError(f"no driver for {parsed.get_backend_name()} ({exc.name} is missing): install "
                        "scrapesmith with its db extra") from exc


def sql_type(kind: str, dialect: str):
    """The SQLAlchemy type of a column of schema type ``kind`` in ``dialect``."""
    import sqlalchemy as sa
    from sqlalchemy.dialects import postgresql

    if kind == "list":
        return postgresql.ARRAY(sa.Text) if dialect in ("postgresql", "duckdb") else sa.JSON()
    types = {"string": sa.Text(), "integer": sa.BigInteger(), "number": sa.Double(), "boolean": sa.Boolean(),
             "date": sa.Date(), "timestamp": sa.DateTime(timezone=True)}
    if kind not in types:
        raise SinkError(f"unknown column type '{kind}' (use {', '.join(COLUMN_TYPES)})")
    return types[kind]


def load_dataset(path: Path, sink: DatabaseSink, schema: Mapping[str, str] | None = None,
                 now: datetime | None = None) -> SinkResult:
    """Write a dataset file (CSV, JSONL, Parquet, as :mod:`~scrapesmith.io.datasets` writes them) into ``sink``,
    typed as the writer typed it: ``schema`` where the program declares one, else inferred from the values."""
    path = Path(path)
    return write_database(lambda: _file_chunks(path), sink, schema, now)


def _file_chunks(path: Path) -> Iterator[list[dict[str, Any]]]:
    rows = iter_rows(path)
    while chunk := list(itertools.islice(rows, ROW_GROUP)):
        yield chunk


def write_database(chunks: RowChunks, sink: DatabaseSink, schema: Mapping[str, str] | None = None,
                   now: datetime | None = None) -> SinkResult:
    """Write every row of ``chunks()`` into ``sink``'s table, typed as :func:`write_row_chunks` types a file.

    ``chunks()`` is called twice (the columns and their types first, then the rows), so a dataset of any size
    goes in bounded memory. The table is created when missing (the columns in the one order, then
    ``first_seen``, ``last_seen``); columns it lacks are added. With a key, a unique index on it is made if
    there is none, and each row updates the row with its key or is inserted. ``now`` is the ``last_seen``
    (and a new row's ``first_seen``) of this write.
    """
    import sqlalchemy as sa

    columns, schema = dataset_schema(chunks, schema)
    missing_key = [k for k in sink.key if k not in columns]
    if missing_key:
        raise SinkError(f"key {','.join(missing_key)}: not a column of the rows (columns: {', '.join(columns)})")
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    engine = _engine(sink.url)
    result = SinkResult(sink.table, sink.shown, keyed=bool(sink.key), columns=columns)
    try:
        table = _prepare_table(engine, sink, columns, schema)
        if engine.dialect.name == "duckdb":  # row-by-row parameters are slow there: a batch goes in as one table
            statement = _insert(engine.dialect.name, table, sink.key, source=_BATCH_VIEW)
            schema = {**schema, **dict.fromkeys(SEEN_COLUMNS, "timestamp")}
        else:
            statement = _insert(engine.dialect.name, table, sink.key)
        for batch in _batches(chunks(), sink.batch_size):
            typed, _applied = conform(batch, {c: schema.get(c, "string") for c in columns})
            rows, keyless = _keyed(typed, sink.key)
            result.keyless += keyless
            params = [{**{c: row.get(c) for c in columns}, "first_seen": moment, "last_seen": moment} for row in rows]
            if params:
                _write_batch(engine, statement, params, result, sink, schema)
        with engine.connect() as connection:
            result.table_rows = connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
    finally:
        engine.dispose()
    return result


def _write_batch(engine, statement, params: list[dict[str, Any]], result: SinkResult, sink: DatabaseSink,
                 schema: Mapping[str, str]) -> None:
    """One transaction: every row of the batch, or (on any error) none of them."""
    import sqlalchemy as sa

    first = result.written + result.keyless + 1
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "duckdb":
                _execute_from_arrow(connection, statement, params, schema)
            else:
                connection.execute(statement, params)
    except sa.exc.SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise SinkError(f"batch {result.batches + 1} (rows {first}-{first + len(params) - 1}) into {sink.table} "
                        f"at {sink.shown} failed and was rolled back: {reason}; {result.written} rows of earlier "
                        "batches stay written") from exc
    result.written += len(params)
    result.batches += 1


_BATCH_VIEW = "scrapesmith_batch"


def _execute_from_arrow(connection, statement, params: list[dict[str, Any]], schema: Mapping[str, str]) -> None:
    """DuckDB: the batch as an Arrow table the INSERT … SELECT reads (values never enter the SQL text)."""
    import pyarrow as pa

    names = list(params[0])
    types = {"string": pa.string(), "integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_(),
             "date": pa.date32(), "timestamp": pa.timestamp("us", tz="UTC"), "list": pa.list_(pa.string())}
    arrow = pa.Table.from_pylist(params, schema=pa.schema([(n, types[schema.get(n, "string")]) for n in names]))
    raw = connection.connection.driver_connection
    raw.register(_BATCH_VIEW, arrow)  # a later batch's registration replaces it, should this one fail
    connection.execute(statement)
    raw.unregister(_BATCH_VIEW)


def _batches(chunks: Iterable[Sequence[Mapping[str, Any]]], size: int) -> Iterator[list[Mapping[str, Any]]]:
    rows = itertools.chain.from_iterable(chunks)
    while batch := list(itertools.islice(rows, size)):
        yield batch


def _keyed(rows: list[dict[str, Any]], key: tuple[str, ...]) -> tuple[list[dict[str, Any]], int]:
    """The rows to write and how many had an empty key; of rows sharing a key in one batch the last one wins
    (a database refuses to update one row twice in one statement)."""
    if not key:
        return rows, 0
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    keyless = 0
    for row in rows:
        values = tuple(row.get(k) for k in key)
        if any(is_empty(v) for v in values):
            keyless += 1
            continue
        kept[tuple(repr(v) for v in values)] = row
    return list(kept.values()), keyless


def _prepare_table(engine, sink: DatabaseSink, columns: list[str], schema: Mapping[str, str]):
    """The table to write (created, or given the columns it lacks) and, with a key, its unique index."""
    import sqlalchemy as sa
    from sqlalchemy.schema import CreateColumn, CreateIndex

    dialect = engine.dialect.name
    metadata = sa.MetaData()
    table = sa.Table(sink.table, metadata,
                     *(sa.Column(c, sql_type(schema.get(c, "string"), dialect)) for c in columns),
                     *(sa.Column(c, sa.DateTime(timezone=True)) for c in SEEN_COLUMNS))
    try:
        with engine.begin() as connection:
            if not sa.inspect(connection).has_table(sink.table):
                table.create(connection)
            else:
                present = set(connection.execute(sa.select(sa.literal_column("*")).select_from(
                    sa.table(sink.table)).limit(0)).keys())
                quoted = engine.dialect.identifier_preparer.format_table(table)
                for column in table.columns:
                    if column.name not in present:
                        ddl = CreateColumn(column).compile(dialect=engine.dialect)
                        connection.execute(sa.DDL(f"ALTER TABLE {quoted} ADD COLUMN {ddl}"))
            if sink.key:
                index = sa.Index(_index_name(sink.table, sink.key), *(table.c[k] for k in sink.key), unique=True)
                connection.execute(CreateIndex(index, if_not_exists=True))
    except sa.exc.SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise SinkError(f"cannot prepare table {sink.table} at {sink.shown}: {reason}") from exc
    return table


def _index_name(table: str, key: Sequence[str]) -> str:
    name = f"{table}_key_{'_'.join(key)}"
    if len(name) <= 60 and name.replace("_", "").isalnum():
        return name
    return f"key_{hashlib.sha256(name.encode()).hexdigest()[:16]}"


def _insert(dialect: str, table, key: tuple[str, ...], source: str | None = None):
    """An INSERT of ``table``'s rows (bound parameters, or every row of the relation ``source``); with a key,
    one that updates the row holding the key instead."""
    import sqlalchemy as sa

    if source is not None:
        from sqlalchemy.dialects.postgresql import insert

        names = [c.name for c in table.columns]
        rows = sa.select(*sa.table(source, *(sa.column(n) for n in names)).c)
        statement = insert(table).from_select(names, rows)
    elif not key:
        return table.insert()
    if not key:
        return statement
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    elif dialect in ("postgresql", "duckdb"):
        from sqlalchemy.dialects.postgresql import insert
    else:
        raise SinkError(f"upsert into {dialect} is not supported (use {', '.join(DATABASE_SCHEMES)})")
    statement = insert(table) if source is None else statement
    updates = {c.name: statement.excluded[c.name] for c in table.columns
               if c.name not in key and c.name != "first_seen"}
    return statement.on_conflict_do_update(index_elements=list(key), set_=updates)


def read_table(url: str, table: str, schema: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every row of ``table`` as dicts, in the table's column order, values typed by ``schema`` (the provenance
    and seen columns by theirs; any other column as the database returns it)."""
    import sqlalchemy as sa

    engine = _engine(url)
    types = {**PROVENANCE_TYPES, **dict.fromkeys(SEEN_COLUMNS, "timestamp"), **(schema or {})}
    try:
        with engine.connect() as connection:
            names = list(connection.execute(sa.select(sa.literal_column("*")).select_from(
                sa.table(table)).limit(0)).keys())
            typed = sa.Table(table, sa.MetaData(), *(
                sa.Column(n, sql_type(types[n], engine.dialect.name)) if n in types else sa.Column(n) for n in names))
            return [dict(row._mapping) for row in connection.execute(sa.select(typed))]
    except sa.exc.SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise SinkError(f"cannot read table {table} at {_shown(url)}: {reason}") from exc
    finally:
        engine.dispose()
