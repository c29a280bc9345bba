"""Database sinks: every kind (SQLite file, DuckDB file, a real PostgreSQL server) creates a typed table,
upserts by key so a rerun changes no row count, and leaves the table as it was when a batch fails."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa

from scrapesmith.io import DatabaseSink, SinkError, read_table, write_database

SCHEMA = {"isbn": "string", "pages": "integer", "price": "number", "in_stock": "boolean", "published": "date",
          "authors": "list"}
FETCHED = "2026-11-30T10:00:00+00:00"


def books(*changes: dict) -> list[dict]:
    rows = [
        {"isbn": "978-0-00-000001-1", "title": "First", "pages": "320", "price": "12.50", "in_stock": "yes",
         "published": "2021-03-04", "authors": ["Ann Lee", "Bo Ma"]},
        {"isbn": "978-0-00-000002-2", "title": "Second", "pages": "1,024", "price": "7", "in_stock": "no",
         "published": "2019-12-31", "authors": ["Cy Ode"]},
        {"isbn": "978-0-00-000003-3", "title": "Third", "pages": "88", "price": "3.99", "in_stock": "yes",
         "published": None, "authors": []},
    ]
    for row in rows:
        row.update(source_url=f"http://127.0.0.1:9/b/{row['isbn']}", fetched_at=FETCHED, program_id="spec-abc")
    for change in changes:
        for row in rows:
            if row["isbn"] == change["isbn"]:
                row.update(change)
    return rows


def by_isbn(url: str) -> dict[str, dict]:
    return {row["isbn"]: row for row in read_table(url, "books", SCHEMA)}


def test_table_is_created_with_the_declared_types(database_url):
    result = write_database(lambda: [books()], DatabaseSink(database_url, "books", ("isbn",)), SCHEMA)
    assert (result.written, result.table_rows) == (3, 3)
    first, second, third = (by_isbn(database_url)[r["isbn"]] for r in books())
    assert first["pages"] == 320 and second["pages"] == 1024 and isinstance(first["pages"], int)
    assert first["price"] == 12.5 and second["price"] == 7.0
    assert first["in_stock"] is True and second["in_stock"] is False
    assert first["published"] == date(2021, 3, 4) and third["published"] is None
    assert first["authors"] == ["Ann Lee", "Bo Ma"] and second["authors"] == ["Cy Ode"]
    fetched = first["fetched_at"]
    assert (fetched.replace(tzinfo=fetched.tzinfo or UTC)) == datetime(2026, 11, 30, 10, tzinfo=UTC)
    assert first["source_url"].endswith(first["isbn"]) and first["program_id"] == "spec-abc"
    assert first["first_seen"] == first["last_seen"]


def test_list_columns_are_arrays_or_json_not_text(database_url):
    write_database(lambda: [books()], DatabaseSink(database_url, "books", ("isbn",)), SCHEMA)
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            stored = connection.execute(sa.select(sa.func.json_array_length(sa.column("authors")))
                                        .select_from(sa.table("books")).where(sa.column("title") == "First"))
            assert stored.scalar_one() == 2
        else:
            kind = connection.execute(sa.select(sa.column("data_type")).select_from(
                sa.table("columns", schema="information_schema")).where(sa.column("column_name") == "authors"))
            assert kind.scalar_one() in ("ARRAY", "VARCHAR[]")
    engine.dispose()


def test_a_rerun_updates_rows_in_place(database_url):
    sink = DatabaseSink(database_url, "books", ("isbn",))
    first_run = datetime(2026, 12, 1, 8, tzinfo=UTC)
    write_database(lambda: [books()], sink, SCHEMA, now=first_run)
    again = write_database(lambda: [books({"isbn": "978-0-00-000002-2", "price": "8.25", "title": "Second, 2nd ed."})],
                           sink, SCHEMA, now=first_run + timedelta(days=1))
    assert (again.written, again.table_rows) == (3, 3)
    rows = by_isbn(database_url)
    changed = rows["978-0-00-000002-2"]
    assert (changed["price"], changed["title"]) == (8.25, "Second, 2nd ed.")
    assert rows["978-0-00-000001-1"]["price"] == 12.5
    for row in rows.values():
        assert row["first_seen"].replace(tzinfo=UTC) == first_run
        assert row["last_seen"].replace(tzinfo=UTC) == first_run + timedelta(days=1)


def test_without_a_key_rows_are_appended(database_url):
    sink = DatabaseSink(database_url, "books")
    write_database(lambda: [books()], sink, SCHEMA)
    assert write_database(lambda: [books()], sink, SCHEMA).table_rows == 6


def test_rows_sharing_a_key_in_a_batch_keep_the_last_and_empty_keys_are_counted(database_url):
    rows = [*books(), {**books()[0], "price": "1.00"}, {**books()[1], "isbn": None}]
    result = write_database(lambda: [rows], DatabaseSink(database_url, "books", ("isbn",)), SCHEMA)
    assert (result.table_rows, result.keyless) == (3, 1)
    assert "1 rows with an empty key were not written" in result.summary()
    assert by_isbn(database_url)["978-0-00-000001-1"]["price"] == 1.0


def _table_with_a_check(url: str) -> None:
    """A table a user made beforehand, with a rule of their own (prices are not negative)."""
    from scrapesmith.io.database import SEEN_COLUMNS, sql_type

    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    columns = [sa.Column(name, sql_type(kind, engine.dialect.name)) for name, kind in
               {**SCHEMA, "title": "string", "source_url": "string", "fetched_at": "timestamp",
                "program_id": "string"}.items()]
    sa.Table("books", sa.MetaData(), *columns, *(sa.Column(c, sa.DateTime(timezone=True)) for c in SEEN_COLUMNS),
             sa.CheckConstraint("price >= 0", name="price_not_negative")).create(engine)
    engine.dispose()


def test_a_failed_batch_leaves_the_table_as_it_was(database_url):
    _table_with_a_check(database_url)
    sink = DatabaseSink(database_url, "books", ("isbn",))
    write_database(lambda: [books()], sink, SCHEMA)
    before = by_isbn(database_url)
    bad = books({"isbn": "978-0-00-000001-1", "price": "99"}, {"isbn": "978-0-00-000003-3", "price": "-1"})
    bad.append({**bad[0], "isbn": "978-0-00-000004-4"})
    with pytest.raises(SinkError, match=r"batch 1 \(rows 1-4\) into books .* rolled back: .*; 0 rows of earlier"):
        write_database(lambda: [bad], sink, SCHEMA)
    assert by_isbn(database_url) == before


def test_earlier_batches_stay_and_the_error_says_how_many(database_url):
    _table_with_a_check(database_url)
    rows = [*books(), {**books()[0], "isbn": "978-0-00-000004-4", "price": "-3"}]
    with pytest.raises(SinkError, match="batch 2 .* rolled back.*; 2 rows of earlier batches stay written"):
        write_database(lambda: [rows], DatabaseSink(database_url, "books", ("isbn",), batch_size=2), SCHEMA)
    assert sorted(by_isbn(database_url)) == ["978-0-00-000001-1", "978-0-00-000002-2"]


def test_an_existing_table_gains_new_columns(database_url):
    sink = DatabaseSink(database_url, "books", ("isbn",))
    write_database(lambda: [[{k: v for k, v in row.items() if k != "authors"} for row in books()]], sink, SCHEMA)
    write_database(lambda: [books()], sink, SCHEMA)
    assert by_isbn(database_url)["978-0-00-000001-1"]["authors"] == ["Ann Lee", "Bo Ma"]


def test_a_key_that_is_not_a_column_is_one_error(tmp_path):
    with pytest.raises(SinkError, match="key sku: not a column"):
        write_database(lambda: [books()], DatabaseSink(f"sqlite:///{tmp_path / 'r.db'}", "books", ("sku",)), SCHEMA)


def test_passwords_are_hidden_in_messages():
    sink = DatabaseSink("postgresql://me:s3cret@127.0.0.1:1/db", "books")
    assert "s3cret" not in sink.shown and "127.0.0.1" in sink.shown
    with pytest.raises(SinkError, match="not a database URL"):
        DatabaseSink("mysql://127.0.0.1/db", "books")
