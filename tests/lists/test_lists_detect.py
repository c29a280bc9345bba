"""Repeating-record detection and pagination detection (dom/lists.py)."""

from __future__ import annotations

from scrapesmith.dom.list_selection import detect_lists
from scrapesmith.dom.lists import (
    find_first_page,
    find_pagination,
    find_record_regions,
    least_common_ancestor,
    page_number,
)
from scrapesmith.dom.parse import parse_html

CARDS = "".join(
    f'<div class="card"><h3><a href="/p/{i}">Product {i}</a></h3><span class="price">${i}.00</span>'
    f"<p>Description of product number {i}.</p></div>"
    for i in range(1, 7)
)
PAGE = f"""<html><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li><li><a href="/b">Blog</a></li>
<li><a href="/c">Contact</a></li></ul></nav></header>
<main><h1>Shop</h1><div class="grid">{CARDS}</div>
<div class="pager"><a href="?page=1">1</a><a href="?page=2">2</a><a href="?page=3">3</a></div></main>
<footer><ul><li>One</li><li>Two</li><li>Three</li></ul></footer></body></html>"""


def test_main_region_is_the_product_grid_not_the_menu() -> None:
    tree = parse_html(PAGE)
    best = find_record_regions(tree)[0]
    assert best.parent.get("class") == "grid"
    assert [item.findtext(".//a") for item in best.items] == [f"Product {i}" for i in range(1, 7)]


def test_detect_lists_keeps_only_lists_near_the_best_score() -> None:
    regions = detect_lists(parse_html(PAGE))
    assert [region.parent.get("class") for region in regions] == ["grid"]


def test_empty_placeholders_are_dropped_from_a_list() -> None:
    items = "".join(f"<li><b>Name {i}</b> <i>role {i}</i></li>" for i in range(4)) + "<li></li>" * 6
    region = find_record_regions(parse_html(f"<html><body><ul>{items}</ul></body></html>"))[0]
    assert region.size == 4


def test_least_common_ancestor_of_two_items_is_their_list() -> None:
    tree = parse_html(PAGE)
    links = tree.xpath("//div[@class='card']//a")
    assert least_common_ancestor([links[0], links[3]]).get("class") == "grid"
    assert least_common_ancestor([links[0]]) is links[0]


def test_pagination_by_rel_next_words_and_numbers() -> None:
    rel = parse_html('<html><body><a href="/x?page=2" rel="next">→</a></body></html>')
    assert find_pagination(rel, "http://s/x").kind == "rel-next"
    words = parse_html(
        '<html><body><a href="/news/?p=2">Older news ›</a><a href="/n?p=0">‹ Newer</a></body></html>'
    )
    found = find_pagination(words, "http://s/news/")
    assert found.kind == "next-link" and found.url == "http://s/news/?p=2"
    numbered = find_pagination(parse_html(PAGE), "http://s/shop?page=2")
    assert numbered.kind == "page-number" and numbered.url == "http://s/shop?page=3"


def test_no_pagination_on_the_last_page() -> None:
    assert find_pagination(parse_html(PAGE), "http://s/shop?page=3") is None


def test_first_page_of_a_listing_entered_in_the_middle() -> None:
    pager = parse_html('<html><body><a href="/players/">1</a><a href="/players/2/">2</a>'
                       '<a href="/players/4/">Next</a></body></html>')
    assert find_first_page(pager, "http://s/players/3/") == "http://s/players/"
    assert find_first_page(pager, "http://s/players/") is None  # already page 1
    words = parse_html('<html><body><a href="/shop?page=1">« First</a></body></html>')
    assert find_first_page(words, "http://s/shop?page=5") == "http://s/shop?page=1"
    assert find_first_page(parse_html('<html><body><a href="/x">1 comment</a></body></html>'),
                           "http://s/post/7/") is None


def test_page_number_reads_query_and_path_forms() -> None:
    assert page_number("http://s/blog/page/4/") == 4
    assert page_number("http://s/resources/blog/3/") == 3
    assert page_number("http://s/jobs?page=2&team=x") == 2
    assert page_number("http://s/blog/2024/06/post") is None


def test_two_row_records_pair_title_and_details_rows() -> None:
    rows = "".join(
        f'<tr class="story"><td>{i}.</td><td><a href="/s/{i}">Story {i}</a></td></tr>'
        f'<tr><td></td><td><span>{i * 10} points</span> by <a href="/u/{i}">user{i}</a></td></tr>'
        '<tr class="spacer"></tr>'
        for i in range(1, 6)
    )
    region = find_record_regions(
        parse_html(f"<html><body><table><tbody>{rows}</tbody></table></body></html>")
    )[0]
    assert region.size == 5
    first = region.record(0)
    assert [element.get("class") for element in first] == ["story", None]
    assert "10 points" in first[1].text_content()


def test_item_selector_leaves_out_a_tables_header_row() -> None:
    from scrapesmith.dom.selectors import select
    from scrapesmith.lists.selectors import list_item_selectors

    rows = "".join(f"<tr><td><a href='/b/{i}'>Book {i}</a></td><td>${i}.00</td></tr>" for i in range(1, 6))
    tree = parse_html(f"<html><body><table><tr><th>Title</th><th>Price</th></tr>{rows}</table></body></html>")
    records = [tr for tr in tree.iter("tr") if tr.find("td") is not None]
    selector = list_item_selectors(records)
    found = [node for alternative in selector.split(" || ")[:1] for node in select(tree, alternative)]
    assert [node.findtext("td/a") for node in found] == [f"Book {i}" for i in range(1, 6)]
