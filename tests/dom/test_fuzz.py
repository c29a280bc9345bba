"""Property-based fuzzing of the dom layer: whatever HTML a page carries, only project errors come out.

Hypothesis builds documents from a grammar of real-page hazards (control characters in names and
values, broken URLs in ``<base>`` and links, odd code points, runaway nesting, repeated records) and
random text; every document goes through parse, clean, simplify, markdown, list detection, pagination
and selector generation, within a time bound per document.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapesmith.dom import clean_tree, css_selector, parse_html, robust_xpath, select, simplify, to_markdown
from scrapesmith.dom.list_selection import detect_lists
from scrapesmith.dom.lists import find_first_page, find_pagination
from scrapesmith.errors import ScrapesmithError

PAGE_URL = "http://example.test/list?page=2"
SECONDS_PER_DOCUMENT = 5.0
FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
                database=None)

HAZARDS = ["\x00", "\x01", "\x0c", "\x1f", "\ufffe", "\uffff", "\ud800", "'", '"', "<", ">", "&", "[", "]",
           "http://[", "//", "javascript:", "#", "\u202e", "é", "\U0001f600", " "]
hazard_text = st.lists(st.one_of(st.sampled_from(HAZARDS), st.text(max_size=8)), max_size=6).map("".join)
TAGS = ["div", "p", "a", "span", "li", "ul", "ol", "table", "tr", "td", "input", "label", "select", "option",
        "form", "base", "link", "h2", "img", "button", "nav", "main", "o:p", "x\x01y"]
ATTRIBUTES = ["href", "id", "class", "title", "rel", "for", "name", "role", "type", "value", "src", "a\x01b",
              "data-x", "itemprop", "aria-label"]


@st.composite
def elements(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(TAGS))
    attributes = "".join(
        f" {draw(st.sampled_from(ATTRIBUTES))}={draw(st.sampled_from(['', chr(39), chr(34)]))}{draw(hazard_text)}"
        for _ in range(draw(st.integers(0, 3)))
    )
    children = "" if depth >= 3 else "".join(
        draw(st.one_of(hazard_text, elements(depth + 1))) for _ in range(draw(st.integers(0, 3)))
    )
    repeat = draw(st.integers(1, 3))
    closing = draw(st.sampled_from([f"</{tag}>", ""]))
    return f"<{tag}{attributes}>{children}{closing}" * repeat


documents = st.one_of(
    elements().map(lambda body: f"<html><head><base href='http://['></head><body>{body}</body></html>"),
    elements(),
    st.text(max_size=300),
    st.binary(max_size=300),
)


def _exercise(document: str | bytes) -> None:
    tree = parse_html(document, url=PAGE_URL)
    clean_tree(tree, keep_attributes={"class", "href"})
    simplify(tree, max_tokens=500)
    to_markdown(tree, max_tokens=500)
    for region in detect_lists(tree)[:3]:
        for item in region.items[:2]:
            select(tree, robust_xpath(item))
    find_pagination(tree, PAGE_URL)
    find_first_page(tree, PAGE_URL)
    for node in list(tree.iter())[:40]:
        if isinstance(node.tag, str):
            select(tree, robust_xpath(node))
            select(tree, css_selector(node))


@FUZZ
@given(documents)
def test_dom_raises_only_project_errors_on_any_document(document: str | bytes) -> None:
    started = time.monotonic()
    try:
        _exercise(document)
    except ScrapesmithError:
        pass
    assert time.monotonic() - started < SECONDS_PER_DOCUMENT


FINDINGS = {  # each document the fuzzer broke the dom layer with -> what a reader sees in it (markdown view)
    "<div a\x01b=1>x</div>": "x",
    "<div><p title='\x0c'>x</p><p>y</p></div>": "x\n\ny",
    "<input id=\uffff>": '[id: 3] "" (text input)',
    "<base href='http://['><a href=x>x</a>": "[id: 5] x link",
    "<a href='http://[' rel=next>next</a><a href='http://['>Next</a>": "[id: 3] next link [id: 4] Next link",
    "<div><A\x1f</div>": "",  # a tag name that is still no HTML name without its control character
    "<div {a}b=1 href= href=\r{>x</div>": "x",  # attribute names lxml reads as a namespace
}


def test_the_five_fuzz_findings_are_handled() -> None:
    """Each goes through every step, keeps its text, and its every element is found again by its selectors."""
    for document, seen in FINDINGS.items():
        _exercise(document)
        tree = parse_html(document, url=PAGE_URL)
        assert to_markdown(tree, max_tokens=500).text == seen, document
        assert find_pagination(tree, PAGE_URL) is None  # a next link no URL parser accepts is not followed
        for node in tree.iter():
            if isinstance(node.tag, str):
                assert select(tree, robust_xpath(node)) == [node] == select(tree, css_selector(node)), document


def test_a_base_href_no_parser_accepts_falls_back_to_the_page_url() -> None:
    tree = parse_html("<base href='http://['><a href=x>x</a>", url=PAGE_URL)
    assert tree.getroottree().docinfo.URL == PAGE_URL


def test_ten_thousand_deep_nesting_is_handled_in_time() -> None:
    started = time.monotonic()
    _exercise("<div>" * 10_000 + "x" + "</div>" * 10_000)
    assert time.monotonic() - started < 4 * SECONDS_PER_DOCUMENT
