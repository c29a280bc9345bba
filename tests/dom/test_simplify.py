import re

from scrapesmith.dom.ids import ID_ATTRIBUTE, assign_ids
from scrapesmith.dom.parse import parse_html
from scrapesmith.dom.selectors import css_selector, select
from scrapesmith.dom.simplify import simplify
from scrapesmith.dom.tokens import estimate_tokens

BLOG = """<html><body><div id="blog"><ul>
<li class="blog-item"><div><div class="title"><a href="/new-release">New Release: v3.14.15</a></div>
<div class="author">John P. Emm</div></div></li>
<li class="blog-item"><div><div class="title"><a href="/pricing">Pricing updates for 2025</a></div>
<div class="author">Jane Salesperson</div></div></li></ul>
<a class="load-more" href="/list?page=2">Next page</a></div><script>track()</script>
<div style="display:none">hidden text</div></body></html>"""


def _ids(text):
    return [int(n) for n in re.findall(r"<[\w-]+ #(\d+)", text)]


def test_simplified_dom_keeps_text_links_and_numeric_ids():
    tree = parse_html(BLOG)
    simplified = simplify(tree)
    assert 'href="/new-release">New Release: v3.14.15' in simplified.text
    assert "John P. Emm" in simplified.text and "Next page" in simplified.text
    assert "track()" not in simplified.text and "hidden text" not in simplified.text
    assert '<div #' not in simplified.text.split("\n")[0] or 'id="blog"' in simplified.text


def test_wrappers_are_folded_like_bardeenagent_figure_2():
    simplified = simplify(parse_html(BLOG))
    item_line = next(line for line in simplified.text.split("\n") if "<li" in line)
    following = simplified.text.split(item_line)[1].split("\n")[1]
    assert following.strip().startswith("<a #"), "the title div wrappers are folded into the list item"


def test_ids_map_to_the_nodes_of_the_given_tree():
    tree = parse_html(BLOG)
    simplified = simplify(tree)
    assert set(_ids(simplified.text)) == set(simplified.nodes)
    for ident, node in simplified.nodes.items():
        assert node.getroottree().getroot() is tree
        assert node.get(ID_ATTRIBUTE) == str(ident)
    link = next(n for n in simplified.nodes.values() if n.get("href") == "/pricing")
    assert link.text == "Pricing updates for 2025"


def test_ids_are_stable_across_calls_and_respect_existing_stamps():
    tree = parse_html(BLOG)
    first = simplify(tree).text
    assert simplify(tree).text == first
    stamped = parse_html(BLOG.replace('<a class="load-more"', '<a data-ss-id="900" class="load-more"'))
    simplified = simplify(stamped)
    assert simplified.nodes[900].get("class") == "load-more"
    assert "<a #900" in simplified.text


def test_assign_ids_numbers_in_document_order():
    tree = parse_html("<div><p>a</p><p>b</p></div>")
    ids = assign_ids(tree)
    ordered = [element.tag for _, element in sorted(ids.items())]
    assert ordered == ["html", "body", "div", "p", "p"]


def test_subtree_simplification_for_a_list_item():
    tree = parse_html(BLOG)
    whole = simplify(tree)
    item = tree.xpath("//li")[1]
    part = simplify(item)
    assert "Jane Salesperson" in part.text and "John P. Emm" not in part.text
    assert set(part.nodes) <= set(whole.nodes) | set(part.nodes)
    link_id = next(i for i, n in part.nodes.items() if n.tag == "a")
    assert select(item, css_selector(part.nodes[link_id], item)) == [part.nodes[link_id]]


def _catalogue(items: int) -> str:
    cards = "".join(
        f'<div class="card"><h3>Product {i}</h3><p class="desc">{"long description " * 30}</p>'
        f'<a href="/p/{i}">Buy {i}</a></div>'
        for i in range(items)
    )
    return f"<html><body><h1>Catalogue</h1><div class='grid'>{cards}</div><footer>The end</footer></body></html>"


def test_token_budget_is_respected_and_elisions_are_stated():
    tree = parse_html(_catalogue(200))
    simplified = simplify(tree, max_tokens=1500)
    assert simplified.tokens <= 1500
    assert estimate_tokens(simplified.text) == simplified.tokens
    assert "elided" in simplified.text
    assert "Catalogue" in simplified.text and "The end" in simplified.text, "the end is not cut blindly"
    assert set(_ids(simplified.text)) == set(simplified.nodes)


def test_similar_records_collapse_with_a_marker_naming_the_ids():
    simplified = simplify(parse_html(_catalogue(10)), max_tokens=None)
    assert re.search(r"… 8 more similar <div> elided \(#\d+–#\d+\)", simplified.text)
    assert "Product 1" in simplified.text and "Product 9" not in simplified.text
    everything = simplify(parse_html(_catalogue(10)), max_tokens=None, max_similar=None)
    assert "Product 9" in everything.text


def test_tiny_budget_cuts_the_end_and_says_so():
    simplified = simplify(parse_html(_catalogue(50)), max_tokens=60)
    assert simplified.tokens <= 60
    assert "token budget 60" in simplified.text


def test_swde_page_is_at_most_a_third_of_raw_tokens_and_keeps_values(swde_page):
    simplified = simplify(parse_html(swde_page))
    raw_tokens = estimate_tokens(swde_page.decode("utf-8"))
    assert simplified.tokens < raw_tokens / 3
    for value in ("Stephenie Meyer", "9780316125581", "Hachette Book Group", "June 2010"):
        assert value in simplified.text


def test_budget_uses_the_given_token_counter():
    simplified = simplify(parse_html(_catalogue(40)), max_tokens=2000, count_tokens=len)
    assert len(simplified.text) <= 2000 and simplified.tokens == len(simplified.text)


def test_records_without_wrappers_collapse_as_repeating_groups():
    formats = "".join(
        f'<a href="/p/{i}">Format {i}</a> for <span class="price">${i}.99</span>, published by House {i}<br>'
        for i in range(30)
    )
    simplified = simplify(parse_html(f"<p>Other formats: {formats}</p>"), max_tokens=None)
    assert re.search(r"… 28 more similar groups of 4 items elided \(#\d+–#\d+\)", simplified.text)
    assert "Format 1" in simplified.text and "Format 29" not in simplified.text


def test_repeated_subtrees_are_shown_once():
    block = "<ul class='details'>" + "".join(f"<li>Fact {i}</li>" for i in range(6)) + "</ul>"
    simplified = simplify(parse_html(f"<div class='tab'>{block}</div><div class='tab'>{block}</div>"))
    assert simplified.text.count("Fact 5") == 1
    assert re.search(r"… same content as #\d+ elided", simplified.text)
    assert set(_ids(simplified.text)) == set(simplified.nodes)


def test_tooltips_and_image_alts_repeating_visible_text_are_dropped():
    html = '<a href="/b" title="Take Four (Paperback)"><img alt="Take Four (Paperback)"><div>Take Four<br>(Paperback)</div></a>'
    text = simplify(parse_html(html)).text
    assert "title=" not in text and "alt=" not in text
    assert "Take Four" in text


def test_session_parameters_shared_by_all_links_are_hidden():
    links = "".join(f'<a href="http://shop.test/item{i}?sid=XYZ123&amp;ref={i}">Item {i}</a>' for i in range(6))
    tree = parse_html(f"<div>{links}</div>", url="http://shop.test/")
    text = simplify(tree).text
    assert "sid=" not in text and 'href="/item3?ref=3"' in text


def test_runaway_nesting_and_binary_garbage_do_not_crash():
    deep = parse_html("<div>" * 1500 + "<a href='/x'>deep link</a>" + "</div>" * 1500)
    assert "deep link" in simplify(deep).text
    garbage = bytes(range(256)) * 40
    assert isinstance(simplify(parse_html(garbage)).text, str)
