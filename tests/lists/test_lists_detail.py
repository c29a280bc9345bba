"""The lists detail pass: fields on the items' own pages come from induce, agreeing across three pages,
and every row says which page its values came from (``detail_url`` next to ``source_url``)."""

from __future__ import annotations

import json

from scrapesmith.lists.dsl import SaveText, ScrapeFields
from scrapesmith.lists.service import extract_list, replay_program
from scrapesmith.lists.views import ListProgram

BOOKS = [
    ("b1", "Dune", "Frank Herbert", "9780441172719", "Ace Books", "June 1990"),
    ("b2", "Emma", "Jane Austen", "9780141439587", "Penguin Classics", "May 2003"),
    ("b3", "Ubik", "Philip K. Dick", "9780547572291", "Mariner Books", "May 2012"),
    ("b4", "Kindred", "Octavia Butler", "9780807083697", "Beacon Press", "February 2004"),
]
SIDEBAR = ('<aside class="related"><h3>Customers also bought</h3><ul>'
           '<li><a href="/books/b9">Other Book</a> <span>Publisher: Tor</span></li>'
           '<li><a href="/books/b8">Another</a> <span>Publisher: Orbit</span></li>'
           '<li><a href="/books/b7">Third</a> <span>Publisher: Baen</span></li></ul></aside>')


def book_page(title: str, author: str, isbn: str, publisher: str, date: str, extra: str = "") -> str:
    """A detail page shaped like real bookstore pages: facets and a related-items sidebar around the record."""
    return (
        "<html><head><title>" + title + " by " + author + ": Books</title></head><body>"
        '<nav class="facets"><a href="/browse?f=publisher">Publisher</a><ul><li><a href="/p/1">Tor</a></li>'
        '<li><a href="/p/2">Orbit</a></li><li><a href="/p/3">Baen</a></li></ul></nav>'
        f'<div id="main"><h1>{title}</h1><p class="by">By: <a href="/a/{author}">{author}</a></p>'
        f"<ul class=\"details\"><li><b>ISBN-13:</b> {isbn}</li><li><b>Publisher:</b> {publisher}</li>"
        f"<li><b>Publication date:</b> {date}</li>{extra}</ul></div>{SIDEBAR}"
        "<footer>Copyright Books Inc.</footer></body></html>"
    )


def serve_catalog(site, links_only: bool = True) -> str:
    items = "".join(f'<li><a href="/books/{key}">{title} by {author}</a></li>' for key, title, author, *_ in BOOKS)
    site.pages["/catalog"] = f"<html><body><h1>Catalog</h1><ul class='books'>{items}</ul></body></html>"
    for index, (key, title, author, isbn, publisher, date) in enumerate(BOOKS):
        extra = "<li><b>Edition:</b> First</li>" if index == 0 else ""
        site.pages[f"/books/{key}"] = book_page(title, author, isbn, publisher, date, extra)
    return site.url("/catalog")


COLUMNS = ["title", "author", "isbn_13", "publisher", "publication_date", "edition"]


def test_detail_fields_are_induced_over_three_pages_and_agree(mutable_site, site_runtimes) -> None:
    recording, result = extract_list(site_runtimes, serve_catalog(mutable_site), "all books", COLUMNS)
    plan = recording.program.plan()
    scrapers = [a for a in plan.detail if isinstance(a, ScrapeFields)]
    assert len(scrapers) == 1 and not any(isinstance(a, SaveText) for a in plan.detail)
    assert set(scrapers[0].columns) == {"title", "author", "isbn_13", "publisher", "publication_date"}
    # "Edition" is on one detail page only: a selector that does not agree across the three is dropped
    assert "edition" not in scrapers[0].columns
    assert len(scrapers[0].spec.seeds) == 3
    rows = {row["isbn_13"]: row for row in result.rows}
    for _key, title, author, isbn, publisher, date in BOOKS:
        assert rows[isbn]["title"] == title and rows[isbn]["author"] == author
        assert rows[isbn]["publisher"] == publisher and rows[isbn]["publication_date"] == date


def test_rows_record_the_detail_page_next_to_the_list_page(mutable_site, site_runtimes) -> None:
    start = serve_catalog(mutable_site)
    recording, _ = extract_list(site_runtimes, start, "all books", ["title", "isbn_13"])
    result = replay_program(site_runtimes, ListProgram.from_json(recording.program.to_json()))
    assert [row["detail_url"] for row in result.rows] == [mutable_site.url(f"/books/{b[0]}") for b in BOOKS]
    assert {row["source_url"] for row in result.rows} == {start}
    assert list(result.rows[0])[:4] == ["title", "isbn_13", "source_url", "detail_url"]


def test_a_list_without_detail_pages_has_no_detail_url(mutable_site, site_runtimes) -> None:
    items = "".join(f"<li><h3>{t}</h3><p class='author'>{a}</p></li>" for _k, t, a, *_ in BOOKS)
    mutable_site.pages["/plain"] = f"<html><body><ul>{items}</ul></body></html>"
    _, result = extract_list(site_runtimes, mutable_site.url("/plain"), "all books", ["title", "author"])
    assert [row["author"] for row in result.rows] == [b[2] for b in BOOKS]
    assert "detail_url" not in result.rows[0]


def test_the_model_recorder_looks_on_the_item_pages_before_asking_per_row(mutable_site, site_runtimes) -> None:
    from scrapesmith.lists.agent import record_with_llm
    from scrapesmith.llm.scripted import ScriptedLLM

    def respond(request) -> str:  # declines every part, approves the rows: the detail pass must find isbn_13
        if request.stage == "lists.verify":
            return '{"success": true}'
        key = (request.json_schema or {}).get("title", "choice")
        return f'{{"{key}": -1}}'

    start = serve_catalog(mutable_site)
    llm = ScriptedLLM(respond)
    with site_runtimes() as runtime:
        recording = record_with_llm(runtime, start, "all books", ["title", "isbn_13"], llm)
    plan = recording.program.plan()
    assert not any(a.action == "AnswerQuestion" for a in plan.item)
    assert [a.columns for a in plan.detail if isinstance(a, ScrapeFields)] == [["isbn_13"]]
    result = replay_program(site_runtimes, recording.program)
    assert [row["isbn_13"] for row in result.rows] == [b[3] for b in BOOKS] and result.llm_calls == 0


def test_the_program_id_does_not_depend_on_when_the_detail_scraper_was_induced(mutable_site, site_runtimes) -> None:
    start = serve_catalog(mutable_site)
    first, _ = extract_list(site_runtimes, start, "all books", ["title", "isbn_13"])
    data = json.loads(first.program.to_json())
    for step in data["steps"]:
        if step["action"] == "ScrapeFields":
            step["spec"]["created_at"] = "2001-01-01T00:00:00+00:00"
    assert ListProgram.model_validate(data).program_id == first.program.program_id


def test_a_detail_column_given_by_example_is_learnt_from_its_value(mutable_site, site_runtimes) -> None:
    """``--example``: the value seen on the first item's page names the node, even with no label for it."""
    url = serve_catalog(mutable_site)
    for key, *_ in BOOKS:  # an unlabelled shelf mark, nothing the evidence could name "shelf"
        mutable_site.pages[f"/books/{key}"] = mutable_site.pages[f"/books/{key}"].replace(
            "</ul></div>", f'</ul><p class="mark">QA-{key.upper()}-7</p></div>')
    recording, result = extract_list(site_runtimes, url, "all books", ["title", "shelf"],
                                     examples={"shelf": "QA-B1-7"})
    (scraper,) = [a for a in recording.program.plan().detail if isinstance(a, ScrapeFields)]
    assert "shelf" in scraper.columns and scraper.spec.field("shelf").evidence.startswith("example")
    assert sorted(row["shelf"] for row in result.rows) == [f"QA-{key.upper()}-7" for key, *_ in BOOKS]


def test_an_example_not_on_the_first_page_is_noted_and_the_evidence_finds_the_column(mutable_site,
                                                                                   site_runtimes) -> None:
    recording, result = extract_list(site_runtimes, serve_catalog(mutable_site), "all books", ["publisher"],
                                     examples={"publisher": "Nowhere Press"})
    assert any("Nowhere Press" in note and "found by evidence" in note for note in recording.program.notes)
    assert sorted(row["publisher"] for row in result.rows) == sorted(b[4] for b in BOOKS)


def test_a_bad_example_is_a_usage_error() -> None:
    import subprocess
    import sys

    for example, says in (("shelf", "NAME=VALUE"), ("colour=red", "not one of the --columns")):
        done = subprocess.run([sys.executable, "-m", "scrapesmith", "lists", "http://127.0.0.1:9/", "--goal", "all",
                               "--columns", "title,shelf", "--example", example],
                              check=False, capture_output=True, text=True)
        assert done.returncode == 2 and says in done.stderr, done.stderr
