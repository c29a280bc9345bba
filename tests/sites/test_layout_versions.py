"""The demo web's layout versions: the same records drawn differently, served over real HTTP; a spec forged on
the original layout drifts on a redesign and heals from its seed values."""

from __future__ import annotations

import pytest

from scrapesmith.dom import parse_html
from scrapesmith.dom.mutate import LAYOUT_VERSIONS
from scrapesmith.drift import compare
from scrapesmith.induce import CompiledSpec, FieldRequest, induce_scraper
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.heal import heal_spec
from scrapesmith.induce.profile import with_profile
from scrapesmith.sites import build_sites, serve_sites
from scrapesmith.web.fetch import HttpFetcher


@pytest.fixture(scope="module")
def original():
    return build_sites(7)


@pytest.mark.parametrize("layout", range(1, len(LAYOUT_VERSIONS) + 1))
def test_every_layout_keeps_the_records_and_changes_the_markup(original, layout):
    drawn = build_sites(7, layout)
    paths = original.urls("bookshelf", kind="detail")[:4]
    assert drawn.truth("bookshelf") == original.truth("bookshelf")
    for path, book in zip(paths, original.truth("bookshelf")["books"], strict=False):
        body = drawn.respond(path).body.decode()
        assert book["isbn_13"] in body and book["title"] in body
    assert any(drawn.respond(p).body != original.respond(p).body for p in paths)


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="layout version 9"):
        build_sites(7, 9)


def test_layout_is_served_over_http():
    with serve_sites(port=0, layout=1) as web, HttpFetcher(allow_hosts=[f"{web.host}:{web.port}"], delay=0) as http:
        path = web.sites.urls("bookshelf", kind="detail")[0]
        page = http.fetch(web.url(path))
    assert page.status == 200 and "class=\"c-" in page.text


def test_spec_forged_on_the_original_drifts_on_layout_5_and_heals(original):
    drawn = build_sites(7, 5)
    paths = original.urls("bookshelf", kind="detail")[:8]
    seeds = [parse_html(original.respond(p).body) for p in paths[:3]]
    requests = [FieldRequest("isbn_13", "the ISBN-13 of the book"), FieldRequest("title", "the title of the book")]
    spec = with_profile(induce_scraper(requests, seeds, method="heuristic"), seeds)
    before = [CompiledSpec(spec).row(original.respond(p).body) for p in paths[3:]]
    after = [CompiledSpec(spec).row(drawn.respond(p).body) for p in paths[3:]]
    assert compare(spec.profile, after, kind_of).drifted
    healed = heal_spec(spec, [parse_html(drawn.respond(p).body) for p in paths[:3]])
    assert [CompiledSpec(healed.spec).row(drawn.respond(p).body) for p in paths[3:]] == before
