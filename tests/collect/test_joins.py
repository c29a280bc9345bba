"""Records joined across pages: the columns a standings table lacks come from each team's own page, joined
on the row's link; the blueprint says so and validation finds the joined values on those pages."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from scrapesmith.collect.joins import page_fields
from scrapesmith.collect.service import collect
from scrapesmith.io import read_rows
from scrapesmith.web.archive import WarcReplayFetcher
from scrapesmith.web.page import FetchError

TEAMS = [("north", "North Owls", 50, 32, "Pine Arena", "Ada Moss"), ("south", "South Foxes", 44, 38, "Lake Hall",
                                                                     "Bo Reyes"),
         ("east", "East Bears", 30, 52, "Stone Dome", "Cy Lund")]


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"


def _site() -> dict[str, str]:
    rows = "".join(f'<tr><th><a href="/league/team/{slug}.html">{name}</a></th><td>{w}</td><td>{lost}</td></tr>'
                   for slug, name, w, lost, _arena, _coach in TEAMS)
    pages = {"/league/standings.html": _page("Standings", "<table><thead><tr><th>Team</th><th>Wins</th>"
                                                          f"<th>Losses</th></tr></thead><tbody>{rows}</tbody></table>")}
    for slug, name, _w, _l, arena, coach in TEAMS:
        pages[f"/league/team/{slug}.html"] = _page(name, f"<dl><dt>Arena</dt><dd>{arena}</dd><dt>Head coach</dt>"
                                                         f"<dd>{coach}</dd><dt>Founded</dt><dd>1950</dd></dl>")
    return pages


class _Handler(BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, str]] = {}

    def do_GET(self) -> None:
        body = self.pages.get(self.path)
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write((body or "not found").encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def league() -> Iterator[str]:
    _Handler.pages = _site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_label_value_pairs_of_a_record_page():
    assert page_fields("<dl><dt>Head coach</dt><dd>Ada</dd></dl><table><tr><th>Capacity</th><td>9,000</td></tr>"
                       "</table><p>Colours: red and gold</p>") == {
        "head_coach": "Ada", "capacity": "9,000", "colours": "red and gold"}


def test_columns_only_the_team_pages_hold_are_joined_on_each_row(league, tmp_path):
    url = f"http://{league}/league/standings.html"
    result = collect(f"Collect the standings with columns team, wins, arena and head_coach. Start at {url}",
                     llm=None, run_dir=tmp_path, allow_hosts=[league], delay=0.0)
    rows = read_rows(tmp_path / "dataset.jsonl")
    assert [(r["team"], r["wins"], r["arena"], r["head_coach"]) for r in rows] == [
        (name, wins, arena, coach) for _slug, name, wins, _l, arena, coach in TEAMS]
    assert rows[0]["detail_url"] == f"http://{league}/league/team/north.html"
    assert "Joined on each row's link (the record's own page): `arena` <- 'arena', `head_coach` <- 'head_coach'" in (
        tmp_path / "blueprint.md").read_text()
    checks = {c["name"]: c["ok"] for c in json.loads((tmp_path / "validation.json").read_text())["checks"]}
    assert result.valid and checks["sample-against-pages"] and checks["non-empty:arena"]


def test_a_named_team_is_filtered_before_its_page_is_fetched(league, tmp_path):
    url = f"http://{league}/league/standings.html"
    collect(f"Collect the stats of the South Foxes with columns team, wins, losses and arena. Start at {url}",
            llm=None, run_dir=tmp_path, allow_hosts=[league], delay=0.0)
    assert [(r["team"], r["arena"]) for r in read_rows(tmp_path / "dataset.jsonl")] == [("South Foxes", "Lake Hall")]
    program_pages = WarcReplayFetcher(tmp_path / "pages.warc.gz")  # what program.py fetched
    assert program_pages.fetch(f"http://{league}/league/team/south.html").status == 200
    with pytest.raises(FetchError):
        program_pages.fetch(f"http://{league}/league/team/north.html")
