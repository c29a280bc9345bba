"""``bench sinks``: every sink is timed on the same rows and the table holds exactly those rows after both writes."""

from __future__ import annotations

from scrapesmith.bench.sinks import run_benchmark, synthetic_rows


def test_every_sink_is_timed_and_checked(postgres_server, tmp_path):
    import sqlalchemy as sa

    engine = sa.create_engine(f"{postgres_server.replace('postgresql', 'postgresql+psycopg')}/postgres",
                              isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.DDL("CREATE DATABASE bench_sinks"))
    engine.dispose()
    urls = ["sqlite:///{dir}/rows.db", "duckdb:///{dir}/rows.duckdb", f"{postgres_server}/bench_sinks"]
    result = run_benchmark(1_500, urls, batch_size=400, progress=lambda line: None, folder=tmp_path)
    assert [(case["sink"], case["write"]) for case in result.cases] == [
        ("parquet", "file"), ("sqlite", "insert"), ("sqlite", "upsert"), ("duckdb", "insert"), ("duckdb", "upsert"),
        ("postgresql", "insert"), ("postgresql", "upsert")]
    assert all(case["table_rows"] == 1_500 and case["rows_per_s"] > 0 for case in result.cases)
    assert result.summary["postgresql_upsert_rows_per_s"] == result.cases[-1]["rows_per_s"]


def test_the_rows_are_the_same_every_time_and_keys_are_unique():
    rows = synthetic_rows(300)
    assert rows == synthetic_rows(300) and len({row["id"] for row in rows}) == 300
    assert all(abs(a["price"] + 1 - b["price"]) < 1e-9 for a, b in zip(rows, synthetic_rows(300, 1.0), strict=True))
