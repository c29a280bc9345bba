"""Ground truth of the two SWDE-style book sites equals what their list and detail pages show."""

from __future__ import annotations

from demo_web_helpers import follow, page, text, texts

from scrapesmith.sites import DemoServer
from scrapesmith.sites.html import ObfuscatedClasses

PAGECRAFT = ObfuscatedClasses("7:pagecraft")


def test_bookshelf_catalog_links_every_book(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("bookshelf")
    docs = follow(demo_web, "/bookshelf/catalog/", '//a[starts-with(text(), "Next")]/@href')
    shown = [(text(a), a.get("href")) for d in docs for a in d.xpath('//table[@class="results"]//td[1]/a')]
    assert shown == [(b["title"], b["url"]) for b in truth["books"]]


def test_bookshelf_details_are_bold_labels_with_text_siblings(demo_web: DemoServer) -> None:
    labels = {
        "isbn_13": "ISBN-13:",
        "publisher": "Publisher:",
        "publication_date": "Publication Date:",
        "pages": "Pages:",
        "format": "Format:",
    }
    for book in demo_web.sites.truth("bookshelf")["books"]:
        doc = page(demo_web, book["url"])
        assert texts(doc, '//h1[@class="title"]') == [book["title"]]
        assert texts(doc, '//div[@class="author"]') == [f"by {book['author']}"]
        assert texts(doc, '//span[@class="our-price"]') == [book["price"]]
        for field, label in labels.items():
            values = doc.xpath(f'//b[text()="{label}"]/following-sibling::text()')
            assert [v.strip() for v in values] == [book[field]], field


def test_pagecraft_shop_links_every_book(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("pagecraft")
    docs = follow(demo_web, "/pagecraft/shop/", f'//a[@class="{PAGECRAFT("next")}"]/@href')
    shown = [
        (text(a), a.get("href")) for d in docs for a in d.xpath(f'//a[@class="{PAGECRAFT("card-link")}"]')
    ]
    assert shown == [(b["title"], b["url"]) for b in truth["books"]]


def test_pagecraft_details_are_definition_lists_with_hashed_classes(demo_web: DemoServer) -> None:
    labels = {
        "isbn_13": "ISBN-13",
        "publisher": "Publisher",
        "publication_date": "Release date",
        "pages": "Print length",
        "format": "Binding",
    }
    for book in demo_web.sites.truth("pagecraft")["books"]:
        doc = page(demo_web, book["url"])
        assert texts(doc, "//h1") == ["Pagecraft"]
        assert texts(doc, "//dl/ancestor::div[1]/h2") == [book["title"]]
        assert texts(doc, f'//div[@class="{PAGECRAFT("by")}"]/span') == book["authors"]
        assert texts(doc, f'//div[@class="{PAGECRAFT("amount")}"]') == [book["price"]]
        for field, label in labels.items():
            assert texts(doc, f'//dt[text()="{label}"]/following-sibling::dd') == [book[field]], field
        assert not doc.xpath('//*[contains(@class, "title") or contains(@class, "price")]')


def test_isbn_13_check_digits_are_valid(demo_web: DemoServer) -> None:
    for site in ("bookshelf", "pagecraft"):
        for book in demo_web.sites.truth(site)["books"]:
            digits = [int(d) for d in book["isbn_13"]]
            assert len(digits) == 13 and sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0
