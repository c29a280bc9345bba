"""The two book-page layouts: Bookshelf (``<b>Label:</b> value`` rows) and Pagecraft (hashed-class cards).

Both carry distractors a careless extractor picks up: list prices next to sale prices, "customers also
bought" titles and authors, review snippets, and (on Pagecraft) the site name in the only ``<h1>``.
"""

from __future__ import annotations

from datetime import date

from scrapesmith.sites.html import ObfuscatedClasses, chunk, document, esc, page_count
from scrapesmith.sites.views import SiteBuild

PER_PAGE = 10


def bookshelf_date(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day:%B} {day.day}, {day.year}"


def pagecraft_date(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day.day} {day:%B} {day.year}"


def _shelf_layout(title: str, body: str) -> str:
    return document(
        f"{title} - Bookshelf Outlet",
        (
            '<table id="layout" width="100%"><tr><td id="header" colspan="2"><a href="/bookshelf/">'
            '<b>Bookshelf Outlet</b></a> | <a href="/bookshelf/catalog/">Catalog</a> | <a href="/private/">My '
            'account</a></td></tr>\n<tr><td id="sidebar" valign="top"><b>Browse</b><br><a href="/bookshelf/catalog/">'
            'All books</a><br><a href="/bookshelf/catalog/">Bestsellers</a></td>\n'
            f'<td id="main" valign="top">\n{body}\n</td></tr>\n<tr><td id="footer" colspan="2">Free shipping on orders'
            " over $35. &copy; Bookshelf Outlet</td></tr></table>"
        ),
    )


def _shelf_detail(book: dict, others: list[dict]) -> str:
    authors = " and ".join(f'<a href="/bookshelf/catalog/">{esc(a)}</a>' for a in book["authors"])
    rows = (
        ("ISBN-13", book["isbn_13"]),
        ("Publisher", book["publisher"]),
        ("Publication Date", bookshelf_date(book["published"])),
        ("Pages", book["pages"]),
        ("Format", book["format"]),
        ("Language", "English"),
    )
    details = "".join(f"<tr><td><b>{label}:</b> {esc(value)}</td></tr>" for label, value in rows)
    related = "".join(
        f'<li><a href="{o["url"]}">{esc(o["title"])}</a> by {esc(o["authors"][0])}</li>' for o in others
    )
    return _shelf_layout(
        book["title"],
        (
            f'<div id="pdpOverview"><h1 class="title">{esc(book["title"])}</h1>'
            f'<div class="author">by {authors}</div>'
            f'<div class="price-box">Our price: <span class="our-price">${book["price"]:.2f}</span> '
            f'List price: <s class="list-price">${book["list_price"]:.2f}</s></div>'
            '<form action="/private/cart" method="post"><input type="submit" value="Add to cart"></form></div>\n'
            f'<div id="details"><h2>Product Details</h2><table class="details">{details}</table></div>\n'
            f'<div id="related"><h3>Customers also bought</h3><ul>{related}</ul></div>'
        ),
    )


def render_bookshelf(site: SiteBuild, books: list[dict]) -> None:
    pages = page_count(len(books), PER_PAGE)
    link = lambda n: "/bookshelf/catalog/" if n == 1 else f"/bookshelf/catalog/page-{n}.html"
    for page in range(1, pages + 1):
        rows = "".join(
            f'<tr><td><a href="{b["url"]}">{esc(b["title"])}</a></td><td>{esc(", ".join(b["authors"]))}'
            f"</td><td>${b['price']:.2f}</td></tr>\n"
            for b in chunk(books, PER_PAGE, page)
        )
        nav = " ".join(
            f"<b>[{n}]</b>" if n == page else f'<a href="{link(n)}">[{n}]</a>' for n in range(1, pages + 1)
        )
        nxt = f' <a href="{link(page + 1)}">Next &gt;</a>' if page < pages else ""
        site.add_html(
            link(page),
            _shelf_layout(
                "Catalog",
                (
                    f'<h2>Catalog</h2><table class="results" border="1"><tr><th>Title</th><th>Author</th><th>Price</th></tr>\n'
                    f'{rows}</table><p class="pages">Pages: {nav}{nxt}</p>'
                ),
            ),
            "list",
        )
    for i, book in enumerate(books):
        others = [books[(i + k) % len(books)] for k in (1, 2, 3)]
        site.add_html(book["url"], _shelf_detail(book, others), "detail", "book")
    site.add_html(
        "/bookshelf/",
        _shelf_layout(
            "Home",
            "<h2>Welcome</h2><p>Bargain books every day. "
            '<a href="/bookshelf/catalog/">Browse the catalog</a>.</p>',
        ),
        "home",
    )


def _craft_layout(c: ObfuscatedClasses, title: str, body: str) -> str:
    return document(
        f"{title} — Pagecraft",
        (
            f'<div class="{c("root")}"><div class="{c("bar")}"><h1 class="{c("logo")}"><a href="/pagecraft/">Pagecraft'
            f'</a></h1><div class="{c("links")}"><a href="/pagecraft/shop/">Shop</a><a href="/private/">Account</a>'
            f'</div></div><div class="{c("main")}">\n{body}\n</div><div class="{c("foot")}">Pagecraft Books · '
            "Independent since 1998</div></div>"
        ),
    )


def _craft_detail(c: ObfuscatedClasses, book: dict, others: list[dict]) -> str:
    specs = (
        ("ISBN-13", book["isbn_13"]),
        ("Publisher", book["publisher"]),
        ("Release date", pagecraft_date(book["published"])),
        ("Print length", book["pages"]),
        ("Binding", book["format"]),
    )
    rows = "".join(
        f'<div class="{c("spec")}"><dt class="{c("spec-k")}">{k}</dt><dd class="{c("spec-v")}">'
        f"{esc(v)}</dd></div>"
        for k, v in specs
    )
    contributors = "".join(f'<span class="{c("person")}">{esc(a)}</span>' for a in book["authors"])
    also = "".join(
        f'<div class="{c("mini")}"><a href="{o["url"]}"><div class="{c("mini-t")}">{esc(o["title"])}</div>'
        f'<div class="{c("mini-a")}">{esc(o["authors"][0])}</div></a></div>'
        for o in others
    )
    return _craft_layout(
        c,
        book["title"],
        (
            f'<div class="{c("product")}"><div class="{c("cover")}">{esc(book["title"][:1])}</div>'
            f'<div class="{c("info")}"><h2 class="{c("name")}">{esc(book["title"])}</h2>'
            f'<div class="{c("by")}">{contributors}</div>'
            f'<div class="{c("buy")}"><div class="{c("amount")}">${book["price"]:.2f}</div>'
            f'<div class="{c("was")}">RRP ${book["list_price"]:.2f}</div></div>'
            f'<dl class="{c("specs")}">{rows}</dl></div></div>'
            f'<div class="{c("reviews")}"><div class="{c("review")}">“Could not put it down.” — a reader</div></div>'
            f'<div class="{c("also")}">{also}</div>'
        ),
    )


def render_pagecraft(site: SiteBuild, books: list[dict], seed: int) -> None:
    c = ObfuscatedClasses(f"{seed}:pagecraft")
    pages = page_count(len(books), PER_PAGE)
    link = lambda n: "/pagecraft/shop/" if n == 1 else f"/pagecraft/shop/{n}/"
    for page in range(1, pages + 1):
        cards = "".join(
            f'<div class="{c("card")}"><a class="{c("card-link")}" href="{b["url"]}">'
            f'<div class="{c("card-title")}">{esc(b["title"])}</div></a><div class="{c("card-by")}">'
            f'{esc(", ".join(b["authors"]))}</div><div class="{c("card-price")}">${b["price"]:.2f}</div></div>'
            for b in chunk(books, PER_PAGE, page)
        )
        nxt = f'<a class="{c("next")}" href="{link(page + 1)}">Next →</a>' if page < pages else ""
        prv = f'<a class="{c("prev")}" href="{link(page - 1)}">← Previous</a>' if page > 1 else ""
        site.add_html(
            link(page),
            _craft_layout(
                c, "Shop", f'<div class="{c("grid")}">{cards}</div><div class="{c("pager")}">{prv}{nxt}</div>'
            ),
            "list",
        )
    for i, book in enumerate(books):
        others = [books[(i + k) % len(books)] for k in (2, 5)]
        site.add_html(book["url"], _craft_detail(c, book, others), "detail", "book")
    site.add_html(
        "/pagecraft/",
        _craft_layout(
            c, "Home", '<div>Stories worth keeping. <a href="/pagecraft/shop/">Shop all books</a></div>'
        ),
        "home",
    )
