import re

from scrapesmith.dom.markdown import to_markdown
from scrapesmith.dom.parse import parse_html
from scrapesmith.dom.simplify import simplify

FORM = """<html><body><h1>Shop</h1><nav><a href="/sales">Sales</a> <a href="/"><img alt="Company Logo"></a></nav>
<p>Welcome to <b>our</b> shop.</p>
<form><label for="n">Enter your name</label><input id="n" type="text" placeholder="Name...">
<select name="color"><option>red</option><option selected>blue</option><option>green</option></select>
<label><input type="checkbox" name="agree"> I agree to the terms</label>
<input type="range" aria-label="price" min="0" max="50" step="1" value="5">
<textarea name="message">hello</textarea><button>Send</button>
<div onclick="openMenu()">Menu</div><span role="button">Go</span></form>
<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
<table><tr><th>Year</th><th>Title</th></tr><tr><td>2024</td><td>Paper</td></tr></table>
<script>alert(1)</script></body></html>"""


def test_interactive_elements_are_marked_with_ids_in_insta_format():
    view = to_markdown(parse_html(FORM))
    text = view.text
    assert re.search(r"\[id: \d+\] Sales link", text)
    assert re.search(r"\[id: \d+\] Company Logo link", text)
    assert re.search(r'\[id: \d+\] "Name\.\.\." \(Enter your name text input\)', text)
    assert re.search(r'\[id: \d+\] "blue" \(color select from: red, blue, green\)', text)
    assert re.search(r'\[id: \d+\] "I agree to the terms" \(checkbox\)', text)
    assert re.search(r'\[id: \d+\] "5" \(price range slider min: 0 max: 50 step: 1\)', text)
    assert re.search(r'\[id: \d+\] "hello" \(message textarea\)', text)
    assert re.search(r"\[id: \d+\] Send button", text)
    assert re.search(r"\[id: \d+\] Menu clickable", text)
    assert re.search(r"\[id: \d+\] Go button", text)
    assert "alert(1)" not in text


def test_markdown_structure_headings_lists_tables():
    text = to_markdown(parse_html(FORM)).text
    assert "# Shop" in text and "Welcome to our shop." in text
    assert "- one\n- two\n  - nested" in text
    assert "| Year | Title |\n| --- | --- |\n| 2024 | Paper |" in text


def test_markdown_ids_map_to_nodes_and_agree_with_simplified_dom():
    tree = parse_html(FORM)
    view = to_markdown(tree)
    ids = {int(n) for n in re.findall(r"\[id: (\d+)\]", view.text)}
    assert ids == set(view.nodes)
    select_id = next(i for i, n in view.nodes.items() if n.tag == "select")
    assert view.nodes[select_id].get("name") == "color"
    assert f"<select #{select_id}" in simplify(tree).text


def test_markdown_budget_truncates_and_says_so(swde_page):
    view = to_markdown(parse_html(swde_page), max_tokens=300)
    assert view.tokens <= 300 and view.truncated
    assert "token budget 300" in view.text
    assert all(f"[id: {i}]" in view.text for i in view.nodes)


def test_runaway_nesting_is_flattened_not_a_crash():
    deep = "<div>" * 1500 + "<p>deep text <a href='/x'>deep link</a></p>" + "</div>" * 1500
    view = to_markdown(parse_html(deep))
    assert "deep text" in view.text
    assert re.search(r"\[id: \d+\] deep link link", view.text)
