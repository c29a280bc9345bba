"""A list program records its column types on the first run; every replay writes the same types, with the
provenance columns last in the one order (``detail_url`` after a detail page) and the one timestamp format."""

from __future__ import annotations

import re

import pyarrow.parquet as pq

from scrapesmith.io import read_rows
from scrapesmith.lists.service import extract_list, make_runtimes, replay_program, save_run
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm import Ledger


def test_a_list_program_keeps_its_column_types_for_every_replay(demo_web, tmp_path):
    url = demo_web.url("/proceedings/clml/2023/main/")
    with make_runtimes("http", [f"{demo_web.host}:{demo_web.port}"], 0.0) as runtimes:
        recording, _result = extract_list(runtimes, url, "all papers", ["title", "authors", "track", "url"])
        program = ListProgram.from_json(recording.program.to_json())
        again = replay_program(runtimes, program, max_pages=1)
    assert program.column_types == {"title": "string", "authors": "string", "track": "string", "url": "string"}
    save_run("replay", program, again, tmp_path / "papers.parquet", Ledger())
    schema = pq.read_schema(tmp_path / "papers.parquet")
    assert str(schema.field("fetched_at").type).startswith("timestamp") and str(schema.field("url").type) == "string"
    rows = read_rows(tmp_path / "papers.parquet")
    # the detail pass (the track is on each paper's page) leaves the page it read as detail_url
    assert list(rows[0]) == ["title", "authors", "track", "url", "source_url", "detail_url", "fetched_at",
                             "program_id"]
    assert rows[0]["detail_url"] == rows[0]["url"]
    save_run("replay", program, again, tmp_path / "papers.jsonl", Ledger())
    stamp = read_rows(tmp_path / "papers.jsonl")[0]["fetched_at"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00", stamp)
