"""Book records for the two SWDE-style catalogue sites, and the builders that lay them out.

The two layouts (see :mod:`scrapesmith.sites.book_layouts`) show the same kinds of fields
differently, so a scraper induced on one cannot simply be replayed on the other. Ground-truth values
are the exact strings each page shows (dates and labels differ between the sites).
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from scrapesmith.sites import book_layouts
from scrapesmith.sites.html import slugify
from scrapesmith.sites.views import SiteBuild
from scrapesmith.sites.words import BOOK_FORMATS, BOOK_TITLE_PARTS, FIRST_NAMES, LAST_NAMES, PUBLISHERS

BOOKS_PER_SITE = 24
FIELDS = ("title", "author", "isbn_13", "publisher", "publication_date", "price", "pages", "format")


def isbn_13(rng: random.Random) -> str:
    digits = [9, 7, 8] + [rng.randrange(10) for _ in range(9)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits + [check]))


def _book(rng: random.Random, used: set[str]) -> dict:
    while True:
        article, adjective, noun = (rng.choice(part) for part in BOOK_TITLE_PARTS)
        title = (
            f"{article} {adjective} {noun}"
            if rng.random() < 0.6
            else f"{article} {noun} of {rng.choice(LAST_NAMES)}"
        )
        if title not in used:
            used.add(title)
            break
    authors = [
        f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(1 if rng.random() < 0.8 else 2)
    ]
    published = date(2005, 1, 1) + timedelta(days=rng.randrange(0, 7000))
    list_price = rng.choice((12.99, 14.99, 16.99, 18.99, 24.99, 27.0, 29.99, 35.0))
    return {
        "title": title,
        "authors": authors,
        "isbn_13": isbn_13(rng),
        "publisher": rng.choice(PUBLISHERS),
        "published": published.isoformat(),
        "list_price": list_price,
        "price": round(list_price * rng.choice((1.0, 0.9, 0.8, 0.7)), 2),
        "pages": str(rng.randrange(120, 720)),
        "format": rng.choice(BOOK_FORMATS),
    }


def book_records(seed: int, site: str) -> list[dict]:
    rng = random.Random(f"{seed}:{site}")
    used: set[str] = set()
    return [_book(rng, used) for _ in range(BOOKS_PER_SITE)]


def _truth(site: str, books: list[dict], show_date) -> dict:
    rows = [
        {
            "id": b["id"],
            "url": b["url"],
            "title": b["title"],
            "author": " and ".join(b["authors"]),
            "authors": b["authors"],
            "isbn_13": b["isbn_13"],
            "publisher": b["publisher"],
            "publication_date": show_date(b["published"]),
            "publication_date_iso": b["published"],
            "price": f"${b['price']:.2f}",
            "pages": b["pages"],
            "format": b["format"],
        }
        for b in books
    ]
    return {"site": site, "fields": list(FIELDS), "books": rows}


def build_bookshelf(seed: int) -> SiteBuild:
    books = book_records(seed, "bookshelf")
    for book in books:
        book["id"] = book["isbn_13"]
        book["url"] = f"/bookshelf/book/{slugify(book['title'])}/{book['isbn_13']}.html"
    site = SiteBuild(
        "bookshelf",
        "Bookshelf Outlet",
        "books",
        "Book shop: catalogue pages and detail pages with <b>Label:</b> value rows (SWDE style)",
        "label/value tables with <b> labels and text siblings",
    )
    book_layouts.render_bookshelf(site, books)
    site.truth = _truth("bookshelf", books, book_layouts.bookshelf_date)
    return site


def build_pagecraft(seed: int) -> SiteBuild:
    books = book_records(seed, "pagecraft")
    for number, book in enumerate(books, start=101):
        book["id"] = f"pc{number}"
        book["url"] = f"/pagecraft/p/{book['id']}"
    site = SiteBuild(
        "pagecraft",
        "Pagecraft Books",
        "books",
        "Book shop: card grid pages and detail pages with definition lists (SWDE style)",
        "obfuscated hashed classes, definition lists, cards",
    )
    book_layouts.render_pagecraft(site, books, seed)
    site.truth = _truth("pagecraft", books, book_layouts.pagecraft_date)
    return site
