"""Heuristic induction (no LLM) on the demo web's two book layouts, fetched over HTTP from 127.0.0.1."""

from __future__ import annotations

import pytest

from scrapesmith.demo.induce_step import DEMO_FIELDS
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.field_evidence import concept_for
from scrapesmith.induce.heuristic import induce_heuristic
from scrapesmith.induce.views import FieldRequest

BOOK_FIELDS = {request.name: request.instruction for request in DEMO_FIELDS}

REQUESTS = [FieldRequest(name, instruction) for name, instruction in BOOK_FIELDS.items()]


def _expected(record: dict, name: str):
    return record["authors"] if name == "author" else record[name]


@pytest.mark.parametrize("layout", ["bookshelf", "pagecraft"])
def test_heuristic_spec_from_three_seeds_extracts_every_field_on_unseen_pages(book_layouts, layout):
    site = book_layouts[layout]
    spec = induce_heuristic(REQUESTS, [parse_for_replay(p.text) for p in site.pages[:3]], site=layout)
    compiled = CompiledSpec(spec)
    for url, page in zip(site.urls[3:], site.pages[3:], strict=True):
        row = compiled.row(page.text)
        record = site.truth[url]
        for name in BOOK_FIELDS:
            assert row[name] == _expected(record, name), (layout, name, spec.field(name).actions)


def test_label_anchored_paths_are_preferred_to_positions(book_layouts):
    site = book_layouts["bookshelf"]
    spec = induce_heuristic(REQUESTS, [parse_for_replay(p.text) for p in site.pages[:3]])
    assert spec.field("isbn_13").actions == ["//b[normalize-space()='ISBN-13:']/following-sibling::text()[1]"]
    assert "our-price" in spec.field("price").actions[0] or "Our price" in spec.field("price").actions[0]


def test_headline_field_is_not_the_site_name_heading(book_layouts):
    site = book_layouts["pagecraft"]
    spec = induce_heuristic(
        [FieldRequest("title", "the title of the book")], [parse_for_replay(p.text) for p in site.pages[:3]]
    )
    row = CompiledSpec(spec).row(site.pages[5].text)
    assert row["title"] == site.truth[site.urls[5]]["title"]
    assert row["title"] != "Pagecraft"


def test_a_field_with_no_evidence_gets_an_empty_sequence_and_says_so():
    page = parse_for_replay("<html><body><p>nothing here</p></body></html>")
    spec = induce_heuristic([FieldRequest("isbn_13", "the ISBN-13")], [page, page])
    assert spec.field("isbn_13").actions == []
    assert spec.field("isbn_13").evidence == "no candidate found"


@pytest.mark.parametrize(
    "name, instruction, kind, multiple",
    [
        ("isbn_13", "Please extract the isbn number of the book.", "isbn13", False),
        ("author", "Please extract the author of the book.", "person", True),
        ("publication_date", "Please extract the publication date of the book.", "date", False),
        ("phone", "Please extract the contact phone number of the university.", "phone", False),
        ("date_posted", "Please extract the date that post the job.", "date", False),
        ("title", "Please extract the title of the job.", None, False),
    ],
)
def test_field_concepts_come_from_name_and_instruction(name, instruction, kind, multiple):
    concept = concept_for(name, instruction)
    assert (concept.kind, concept.multiple) == (kind, multiple)
    assert concept.headline == (name == "title")


@pytest.mark.parametrize("site_name", ["acme", "globex"])
def test_heuristic_carries_to_job_pages_of_other_templates(demo_web, site_name):
    """A vertical the heuristics were not tuned on: class words and data-* hooks name the fields."""
    sites = demo_web.sites
    jobs = {job["url"]: job for job in sites.truth(site_name)["jobs"]}
    paths = [p for p in sorted(sites.urls(site_name, "detail")) if p in jobs][:8]
    pages = [sites.pages[p].body.decode() for p in paths]
    requests = [
        FieldRequest("title", "Please extract the title of the job."),
        FieldRequest("location", "Please extract the working location of the job."),
        FieldRequest("employment_type", "the employment type of the job"),
    ]
    compiled = CompiledSpec(induce_heuristic(requests, [parse_for_replay(p) for p in pages[:3]]))
    for path, page in zip(paths[3:], pages[3:], strict=True):
        row = compiled.row(page)
        assert row == {name: jobs[path][name] for name in ("title", "location", "employment_type")}
