"""execute.py: action sequences (prune, then extract), post-processing, and replay on saved SWDE pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.induce.execute import (
    CompiledSpec,
    XPathSyntaxError,
    descendant_form,
    node_value,
    parse_for_replay,
    parse_page,
    post_process,
    rebased_xpath,
    run_actions,
    union_parts,
)
from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec

PAGE = """<html><head><title>T</title></head><body>
<div class="side"><b>ISBN</b>: 111</div>
<div class="main"><ul><li><b>ISBN</b>: 9780316125581</li><li><b>Publisher</b> - Hachette</li></ul>
<p class="by">by <a>Ann Lee</a> and <a>Bo Chen</a></p><p class="note">Price: $9.99 (sale)</p></div>
</body></html>"""
SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde/book/book-booksamillion"


def test_pruning_xpath_scopes_the_next_step_to_the_selected_subtree():
    root = parse_for_replay(PAGE)
    everywhere = run_actions(root, ["//b[.='ISBN']/following-sibling::text()[1]"])
    pruned = run_actions(root, ["//div[@class='main']", "//b[.='ISBN']/following-sibling::text()[1]"])
    assert everywhere == [": 111", ": 9780316125581"]
    assert pruned == [": 9780316125581"]


def test_pruning_to_nothing_extracts_nothing():
    assert run_actions(parse_for_replay(PAGE), ["//table", "//b"]) == []


def test_post_processing_strips_separators_applies_regex_and_cardinality():
    assert post_process([": 9780316125581"], PostProcess()) == ["9780316125581"]
    assert post_process(["- Hachette"], PostProcess(strip_separators=False)) == ["- Hachette"]
    assert post_process(["Price: $9.99 (sale)"], PostProcess(regex=r"\$([\d.]+)")) == ["9.99"]
    assert post_process(["Ann Lee", "Bo Chen"], PostProcess()) == ["Ann Lee"]
    assert post_process(["Ann Lee", "Bo Chen"], PostProcess(multiple=True)) == ["Ann Lee", "Bo Chen"]


def test_compiled_spec_gives_one_row_per_page():
    spec = ScraperSpec(
        fields=[
            FieldSpec(
                name="isbn", actions=["//div[@class='main']", "//b[.='ISBN']/following-sibling::text()[1]"]
            ),
            FieldSpec(name="authors", actions=["//p[@class='by']/a"], post=PostProcess(multiple=True)),
            FieldSpec(name="missing", actions=["//table"]),
        ]
    )
    assert CompiledSpec(spec).row(PAGE) == {
        "isbn": "9780316125581",
        "authors": ["Ann Lee", "Bo Chen"],
        "missing": None,
    }


def test_invalid_xpath_fails_when_the_spec_is_compiled():
    spec = ScraperSpec(fields=[FieldSpec(name="x", actions=["//div[@class="])])
    with pytest.raises(XPathSyntaxError, match="invalid XPath"):
        CompiledSpec(spec)


def test_broken_and_empty_documents_parse_to_empty_results():
    spec = ScraperSpec(fields=[FieldSpec(name="x", actions=["//b"])])
    compiled = CompiledSpec(spec)
    assert compiled.row("") == {"x": None}
    assert compiled.row(b"\x00\xff<b>bold") == {"x": "bold"}
    assert compiled.row('<?xml version="1.0" encoding="utf-8"?><html><body><b>x</b></body></html>') == {
        "x": "x"
    }


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_spec_replays_on_saved_swde_pages():
    spec = ScraperSpec(
        fields=[
            FieldSpec(
                name="isbn_13", actions=["//strong[normalize-space()='ISBN-13']/following-sibling::text()[1]"]
            ),
            FieldSpec(name="title", actions=["//h2/text()"]),
        ]
    )
    compiled = CompiledSpec(spec)
    text = (SWDE / "0000.htm").read_bytes().decode("utf-8")
    assert compiled.row(text) == {
        "isbn_13": "9780316125581",
        "title": "The Short Second Life of Bree Tanner - An Eclipse Novella",
    }


def test_a_union_of_paths_runs_path_by_path_in_its_fast_form_and_inside_a_scope():
    union = "//h3[.='a | b']/following::td[1] | //td[@class='x']"
    assert union_parts(union) == ["//h3[.='a | b']/following::td[1]", "//td[@class='x']"]
    assert descendant_form(union) == ("descendant-or-self::h3[.='a | b']/following::td[1]"
                                      " | descendant-or-self::td[@class='x']")
    assert descendant_form("//li[1] | //td") == "//li[1] | //td"  # "first among siblings" keeps its meaning
    field = FieldSpec(name="x", actions=[union])
    assert rebased_xpath(field) == descendant_form(union)
    page = ("<html><head></head><body><div id='s'><h3>a | b</h3><table><tr><td>1</td><td class='x'>2</td></tr>"
            "</table></div></body></html>")
    compiled = CompiledSpec(ScraperSpec(scope="id('s')", fields=[field.model_copy(update={
        "post": PostProcess(multiple=True)})]))
    assert compiled.row(page) == {"x": ["1", "2"]}


@pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE development data not present")
def test_replay_parses_as_induction_does():
    """The replay parser builds the tree induction saw (without lxml.html's element classes)."""
    for path in sorted(SWDE.glob("000*.htm")):
        text = path.read_bytes().decode("utf-8")
        fast, robust = parse_page(text), parse_for_replay(text)
        assert [(e.tag, e.text, e.tail) for e in fast.iter()] == [(e.tag, e.text, e.tail) for e in robust.iter()]
        assert node_value(fast.find("body")) == node_value(robust.find("body"))


def test_replay_builds_no_id_table_unless_a_field_calls_id():
    """An ``id('x')`` scope is found by a walk in a tree parsed without libxml2's id table, on every page
    (the element's tag learnt on the first); a field that calls ``id()`` gets the table."""
    pages = ["<html><head></head><body><p id='s'>x</p><div id='s'><b>in</b></div><b>out</b></body></html>",
             "<html><head></head><body><div id='s'><b>in 2</b></div><b>out</b></body></html>",
             "<html><head></head><body><b>only</b></body></html>"]
    scoped = CompiledSpec(ScraperSpec(scope="id('s')", fields=[FieldSpec(name="b", actions=["//b"]),
                                                             FieldSpec(name="p", actions=["//p"])]))
    assert [scoped.row(page)["b"] for page in pages] == [None, "in 2", "only"]  # the first id('s') is the <p>
    assert parse_page(pages[0], ids=False).xpath("id('s')") == []
    by_id = CompiledSpec(ScraperSpec(fields=[FieldSpec(name="b", actions=["id('s')//b"])]))
    assert [by_id.row(page)["b"] for page in pages] == [None, "in 2", None]
