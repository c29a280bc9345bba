"""The record scope: found only when it changes nothing on the seeds, ignored on pages without it."""

from __future__ import annotations

from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.scope import find_scope, with_scope
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec


def _page(isbn: str, title: str, outside: str = "") -> str:
    return (
        f"<html><body><div id='nav'><b>ISBN</b>: 000 {outside}</div><div id='main'><div class='box'>"
        f"<h2>{title}</h2><p><b>ISBN</b>: {isbn}</p></div></div></body></html>"
    )


SPEC = ScraperSpec(
    fields=[
        FieldSpec(name="title", actions=["//h2"]),
        FieldSpec(name="isbn", actions=["//div[@class='box']//b[.='ISBN']/following-sibling::text()[1]"]),
    ]
)
SEEDS = [parse_for_replay(_page("111", "A")), parse_for_replay(_page("222", "B"))]


def test_scope_is_the_nearest_id_element_holding_every_field():
    assert find_scope(SPEC, SEEDS) == "id('main')"


def test_scoped_replay_gives_the_same_rows_and_falls_back_without_the_element():
    scoped = CompiledSpec(with_scope(SPEC, SEEDS))
    plain = CompiledSpec(SPEC)
    page = _page("333", "C")
    assert scoped.row(page) == plain.row(page) == {"title": "C", "isbn": "333"}
    other_layout = "<html><body><div class='box'><h2>D</h2><p><b>ISBN</b>: 444</p></div></body></html>"
    assert scoped.row(other_layout) == {"title": "D", "isbn": "444"}


def test_no_scope_when_a_field_lives_outside_any_shared_id_element():
    spec = ScraperSpec(
        fields=[
            FieldSpec(name="title", actions=["//h2"]),
            FieldSpec(name="nav", actions=["//div[@id='nav']/b"], post=PostProcess()),
        ]
    )
    assert find_scope(spec, SEEDS) is None


def test_scope_changes_the_spec_id():
    assert with_scope(SPEC, SEEDS).spec_id != SPEC.spec_id
