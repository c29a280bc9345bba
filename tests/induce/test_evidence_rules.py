"""Evidence rules of the field-finding engine, one per test, on small fragments shaped like real pages.

Every fragment repeats on three seed pages with different records, as induction sees a site; the rule
under test is the only thing that separates the right value from a plausible wrong one.
"""

from __future__ import annotations

import re

from scrapesmith.dom import parse_html
from scrapesmith.induce import CompiledSpec, FieldRequest
from scrapesmith.induce.heuristic import induce_heuristic
from scrapesmith.induce.regions import PageRegions, chrome_markup, detail_like

RECORDS = [
    {"id": "9780316125581", "title": "Bree Tanner", "author": "Stephenie Meyer", "publisher": "Hachette Book Group",
     "year": "2010", "price": "$10.07", "isbn10": "031612558X"},
    {"id": "9781420106879", "title": "Game Over", "author": "Fern Michaels", "publisher": "Zebra",
     "year": "2009", "price": "$7.63", "isbn10": "1420106872"},
    {"id": "9781439187098", "title": "The Overton Window", "author": "Glenn Beck", "publisher": "Threshold",
     "year": "2010", "price": "$16.46", "isbn10": "1439187096"},
    {"id": "9780441018642", "title": "Dead in the Family", "author": "Charlaine Harris", "publisher": "Ace",
     "year": "2011", "price": "$14.01", "isbn10": "0441018645"},
]


def page(body: str, record: dict) -> str:
    return (f'<html><head><base href="http://shop.example/product/{record["id"]}"/>'
            f"<title>{record['title']} by {record['author']}: shop.example</title></head>"
            f"<body>{body.format(**record)}</body></html>")


def induce(body: str, *requests: FieldRequest) -> tuple[CompiledSpec, list[dict]]:
    """Induce on the first three records' pages; return the scraper and its rows on all four."""
    pages = [page(body, r) for r in RECORDS]
    spec = induce_heuristic(list(requests), [parse_html(p) for p in pages[:3]])
    compiled = CompiledSpec(spec)
    return compiled, [compiled.row(p) for p in pages]


RECORD = ('<div class="details"><h1>{title}</h1><p>by <a href="/author/{author}">{author}</a></p>'
          "<ul><li><strong>ISBN-13</strong>: {id}</li><li><strong>Publisher</strong>: {publisher}</li></ul></div>")


def test_a_label_in_a_filter_menu_loses_to_the_label_in_the_record() -> None:
    facets = ('<div class="refine-filters"><h4>Publisher</h4><ul><li>Tor (12)</li><li>Orbit (3)</li>'
              "<li>{publisher} (1)</li></ul></div>")
    nav = '<nav><a href="/browse/publisher">Publisher</a><ul><li><a href="/p/1">Baen</a></li></ul></nav>'
    _, rows = induce(nav + facets + RECORD, FieldRequest("publisher", "the publisher of the book"))
    assert [row["publisher"] for row in rows] == [r["publisher"] for r in RECORDS]


def test_a_sidebar_copy_loses_to_the_main_record_near_the_heading() -> None:
    item = '<li class="item"><a href="/product/97800000000{n}">Other book {n}</a><span class="price">$2.0{n}</span></li>'
    sidebar = '<div class="col"><ul>' + "".join(item.replace("{n}", str(n)) for n in range(3)) + "</ul></div>"
    record = '<div class="main"><h1>{title}</h1><div><span class="price">{price}</span></div></div>'
    compiled, rows = induce(sidebar + record, FieldRequest("price", "the price of the book"))
    assert [row["price"] for row in rows] == [r["price"] for r in RECORDS]
    assert "outside the record" not in compiled.spec.field("price").evidence


def test_a_qualified_label_names_the_price_and_club_prices_are_distractors() -> None:
    body = ('<h2>{title}</h2><table><tr><td class="p">Retail Price: <strike>$99.00</strike></td></tr>'
            '<tr><td class="p">Online Price: {price}</td></tr><tr><td class="p">Club Price: $1.00</td></tr></table>')
    _, rows = induce(body, FieldRequest("price", "the price of the book"))
    assert [row["price"] for row in rows] == [r["price"] for r in RECORDS]


def test_the_parts_of_a_composite_value_go_to_their_own_fields() -> None:
    body = "<h1>{title}</h1><ul><li><b>Publisher:</b> {publisher} / {year} / Paperback</li><li>{author}</li></ul>"
    compiled, rows = induce(body, FieldRequest("publisher", "the publisher of the book"),
                            FieldRequest("publication_date", "the publication date of the book"))
    assert [row["publisher"] for row in rows] == [r["publisher"] for r in RECORDS]
    assert [row["publication_date"] for row in rows] == [r["year"] for r in RECORDS]
    assert compiled.spec.field("publisher").post.regex  # the cleaning is in the spec: replay needs no model


def test_a_label_prefix_is_cleaned_by_the_spec() -> None:
    body = '<h1>{title}</h1><div class="byline">By: {author}</div><div class="code">ISBN-13: {id}</div>'
    _, rows = induce(body, FieldRequest("author", "the author of the book"),
                     FieldRequest("isbn_13", "the ISBN-13 of the book"))
    assert [row["author"] for row in rows] == [[r["author"]] for r in RECORDS]
    assert [row["isbn_13"] for row in rows] == [r["id"] for r in RECORDS]


def test_an_isbn_10_is_never_taken_for_an_isbn_13() -> None:
    body = ('<h1>{title}</h1><ul><li><b>ISBN:</b> <span>{isbn10}</span></li>'
            "<li><b>EAN:</b> <span>{id}</span></li></ul>")
    _, rows = induce(body, FieldRequest("isbn_13", "the ISBN-13 of the book"))
    assert [row["isbn_13"] for row in rows] == [r["id"] for r in RECORDS]


def test_a_value_identical_on_every_seed_is_template() -> None:
    body = ('<div class="topbar"><span class="publisher">Our Shop Press</span></div><h1>{title}</h1>'
            '<div class="publisher-name"><span class="publisher">{publisher}</span></div>')
    _, rows = induce(body, FieldRequest("publisher", "the publisher of the book"))
    assert [row["publisher"] for row in rows] == [r["publisher"] for r in RECORDS]


def test_regions_name_chrome_and_lists_of_other_records() -> None:
    html = page('<nav class="main-nav"><a href="/">Home</a></nav><div id="c"><h1>{title}</h1><p id="own">x</p>'
                '<ul id="rel"><li><a href="/product/1">A</a><b id="other">$1</b></li>'
                '<li><a href="/product/2">B</a></li></ul></div><footer><p id="foot">c</p></footer>', RECORDS[0])
    root = parse_html(html)
    heading = root.find(".//h1")
    regions = PageRegions.of(root, heading, "http://shop.example/product/9780316125581")
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    assert regions.reason(by_id["own"]) is None
    assert regions.reason(by_id["other"]) == "links to other detail pages"
    assert re.match(r"page chrome", regions.reason(by_id["foot"]) or "")
    assert chrome_markup(root.find(".//nav")) == "nav"
    assert detail_like("/product/2", "http://shop.example/product/1")
    assert not detail_like("/author/2", "http://shop.example/product/1")
    assert not detail_like("/product/1/", "http://shop.example/product/1")


def test_price_on_the_development_site_is_the_pages_own(swde_dir) -> None:
    from scrapesmith.bench.swde import read_page
    from scrapesmith.induce.execute import parse_for_replay

    paths = sorted((swde_dir / "book" / "book-booksamillion").glob("*.htm"))
    spec = induce_heuristic([FieldRequest("price", "the price of the book")],
                            [parse_for_replay(read_page(p)) for p in paths[:3]])
    compiled = CompiledSpec(spec)
    for path in paths[3:23]:
        text = read_page(path)
        own = re.search(r"Online Price: (\$[\d.,]+)", text)
        assert own and compiled.row(text)["price"] == own.group(1), path.name


def test_names_listed_in_one_text_become_several_values() -> None:
    coauthors = ["Kevin Balfe", "Emily Bestler", "Jack Henderson", "Ann Lee"]
    body = '<h1>{title}</h1><div class="byline">By: {author} and {coauthor}</div>'
    pages = [page(body.replace("{coauthor}", co), r) for r, co in zip(RECORDS, coauthors, strict=True)]
    spec = induce_heuristic([FieldRequest("author", "the author of the book")], [parse_html(p) for p in pages[:3]])
    compiled = CompiledSpec(spec)
    assert [compiled.row(p)["author"] for p in pages] == [[r["author"], co] for r, co in zip(RECORDS, coauthors,
                                                                                            strict=True)]
    assert spec.field("author").post.split  # the split is in the spec: replay needs no model
