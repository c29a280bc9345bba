"""Ground truth of the company sites (jobs, job filters, blogs, testimonials) equals what pages show."""

from __future__ import annotations

from itertools import product

import lxml.html
from demo_web_helpers import follow, get, page, text, texts, unquote_marks

from scrapesmith.sites import DemoServer
from scrapesmith.sites.html import ObfuscatedClasses, query_path, slugify

NORTHWIND = ObfuscatedClasses("7:northwind")


def _acme_rows(doc: lxml.html.HtmlElement) -> list[dict]:
    return [
        {
            "title": text(tr.xpath('.//a[@class="job-link"]')[0]),
            "url": tr.xpath('.//a[@class="job-link"]/@href')[0],
            "category": text(tr.xpath('td[@class="job-category"]')[0]),
            "location": text(tr.xpath('td[@class="job-location"]')[0]),
            "employment_type": text(tr.xpath('td[@class="job-type"]')[0]),
            "posted": tr.xpath('td[@class="job-posted"]/time/@datetime')[0],
        }
        for tr in doc.xpath('//table[@class="jobs-table"]/tbody/tr[@class="job-row"]')
    ]


def test_acme_careers_paginate_through_every_job(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("acme")
    docs = follow(demo_web, truth["careers"]["url"], '//nav[@class="pagination"]/a[@rel="next"]/@href')
    assert len(docs) == -(-len(truth["jobs"]) // truth["careers"]["page_size"])
    rows = [row for doc in docs for row in _acme_rows(doc)]
    assert rows == [{k: j[k] for k in rows[0]} for j in truth["jobs"]]


def test_acme_filters_show_exactly_the_matching_jobs(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("acme")
    doc = page(demo_web, truth["careers"]["url"])
    assert doc.xpath('//select[@name="category"]/option/@value')[1:] == [
        slugify(c) for c in truth["categories"]
    ]
    for category, location in product(["", *truth["categories"]], ["", *truth["locations"]]):
        start = query_path(
            truth["careers"]["url"], {"category": slugify(category), "location": slugify(location)}
        )
        docs = follow(demo_web, start, '//nav[@class="pagination"]/a[@rel="next"]/@href')
        shown = [row["url"] for doc in docs for row in _acme_rows(doc)]
        assert shown == [
            j["url"]
            for j in truth["jobs"]
            if category in ("", j["category"]) and location in ("", j["location"])
        ]


def test_acme_unknown_filter_shows_an_empty_list_and_a_page_past_the_end_is_404(
    demo_web: DemoServer,
) -> None:
    doc = page(demo_web, "/acme/careers/?category=astronaut")
    assert not _acme_rows(doc) and texts(doc, '//p[@class="no-results"]')
    assert get(demo_web, "/acme/careers/?page=99").status_code == 404


def _northwind_groups(doc: lxml.html.HtmlElement) -> list[tuple[str, str, str]]:
    return [
        (text(group.xpath("h3")[0]), text(card), card.get("href"))
        for group in doc.xpath("//div[h3]")
        for card in group.xpath(f'.//a[@class="{NORTHWIND("job-link")}"]')
    ]


def test_northwind_jobs_are_grouped_under_team_headers(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("northwind")
    shown = _northwind_groups(page(demo_web, truth["careers"]["url"]))
    assert sorted(shown) == sorted((j["category"], j["title"], j["url"]) for j in truth["jobs"])
    for team, office in product(["", *truth["categories"]], ["", *truth["locations"]]):
        path = query_path(truth["careers"]["url"], {"team": slugify(team), "office": slugify(office)})
        urls = sorted(url for _team, _title, url in _northwind_groups(page(demo_web, path)))
        assert urls == sorted(
            j["url"] for j in truth["jobs"] if team in ("", j["category"]) and office in ("", j["location"])
        )


def test_northwind_filter_chips_link_to_filtered_views(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("northwind")
    hrefs = page(demo_web, truth["careers"]["url"]).xpath(
        f'//a[contains(@class, "{NORTHWIND("chip")}")]/@href'
    )
    for team in truth["categories"]:
        assert f"/northwind/jobs/?team={slugify(team)}" in hrefs


def test_javascript_careers_page_ships_an_empty_list_and_a_json_endpoint(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("globex")
    doc = page(demo_web, truth["careers"]["url"])
    container = doc.xpath('//ul[@id="job-list"]')[0]
    assert len(container) == 0 and not text(container)
    assert "enable JavaScript" in " ".join(texts(doc, "//noscript"))
    assert doc.xpath('//button[@id="load-more"]/@hidden') == [""]
    assert doc.xpath('//select[@id="filter-category"]/option/@value')[1:] == truth["categories"]
    script = get(demo_web, doc.xpath("//script/@src")[0])
    assert (
        script.headers["content-type"].startswith("application/javascript") and b"load-more" in script.content
    )
    api = get(demo_web, truth["careers"]["api"])
    assert api.headers["content-type"] == "application/json"
    assert api.json()["jobs"] == truth["jobs"]
    assert not any(j["title"] in doc.text_content() for j in truth["jobs"])


def test_job_pages_show_their_title_and_facts(demo_web: DemoServer) -> None:
    for site in ("acme", "northwind", "globex"):
        for job in demo_web.sites.truth(site)["jobs"]:
            doc = page(demo_web, job["url"])
            assert texts(doc, "//h1") == [job["title"]]
            body = text(doc.xpath("//body")[0])
            assert job["location"] in body and job["employment_type"] in body and job["category"] in body
            assert doc.xpath("//a[starts-with(@href, '/private/apply')]")


def _posts_of(doc: lxml.html.HtmlElement, item_xpath: str, link: str, date: str, author: str) -> list[dict]:
    return [
        {
            "title": text(item.xpath(link)[0]),
            "url": item.xpath(link)[0].get("href"),
            "date": item.xpath(date)[0],
            "author": text(item.xpath(author)[0]),
        }
        for item in doc.xpath(item_xpath)
    ]


def test_acme_blog_paginates_through_every_post(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("acme")
    docs = follow(demo_web, truth["blog"]["url"], '//a[@rel="next"]/@href')
    shown = [
        p
        for d in docs
        for p in _posts_of(
            d,
            '//article[@class="post-card"]',
            ".//h2/a",
            ".//time/@datetime",
            './/span[@class="post-author"]',
        )
    ]
    assert shown == [{k: p[k] for k in ("title", "url", "date", "author")} for p in truth["posts"]]
    assert (
        texts(docs[0], '//article[@class="post-card"]//p[@class="post-summary"]')[0]
        == truth["posts"][0]["summary"]
    )


def test_northwind_news_paginates_with_query_pages(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("northwind")
    docs = follow(demo_web, truth["blog"]["url"], '//a[contains(text(), "Older news")]/@href')
    assert len(docs) == -(-len(truth["posts"]) // truth["blog"]["page_size"])
    links = [a for d in docs for a in d.xpath(f'//a[@class="{NORTHWIND("news-link")}"]')]
    assert [(text(a), a.get("href")) for a in links] == [(p["title"], p["url"]) for p in truth["posts"]]
    for post in truth["posts"][:3]:
        doc = page(demo_web, post["url"])
        assert texts(doc, "//h1") == [post["title"]] and doc.xpath("//time/@datetime") == [post["date"]]
        assert post["author"] in text(doc.xpath("//body")[0])


def test_globex_blog_mixes_a_featured_copy_and_promos_into_the_posts(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("globex")
    pages = -(-len(truth["posts"]) // truth["blog"]["page_size"])
    paths = [truth["blog"]["url"]] + [f"{truth['blog']['url']}{n}/" for n in range(2, pages + 1)]
    assert page(demo_web, paths[0]).xpath('//div[contains(@class, "justify-center")]/a/@href') == paths[1:]
    cards = [
        a.get("href")
        for path in paths
        for a in page(demo_web, path).xpath('//div[contains(@class, "rounded-xl")]/a')
    ]
    posts = [href for href in cards if href.endswith(".html")]
    assert list(dict.fromkeys(posts)) == [p["url"] for p in truth["posts"]]
    assert posts.count(truth["posts"][0]["url"]) == 2
    assert len(cards) - len(posts) == pages


def test_acme_testimonials_are_uniform_cards(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("acme")
    doc = page(demo_web, truth["testimonials_url"])
    shown = [
        {
            "name": text(f.xpath('.//span[@class="testimonial-name"]')[0]),
            "role": text(f.xpath('.//span[@class="testimonial-role"]')[0]),
            "company": text(f.xpath('.//a[@class="testimonial-company"]')[0]),
            "quote": unquote_marks(text(f.xpath(".//blockquote")[0])),
            "url": f.xpath('.//a[@class="testimonial-company"]/@href')[0],
        }
        for f in doc.xpath('//figure[@class="testimonial"]')
    ]
    assert shown == [{k: t[k] for k in shown[0]} for t in truth["testimonials"]]


def test_northwind_testimonials_are_irregular_but_complete(demo_web: DemoServer) -> None:
    """Items sit between <h2> industry headers and <hr> dividers, in three shapes; each segment is one item."""
    truth = demo_web.sites.truth("northwind")
    container = page(demo_web, truth["testimonials_url"]).xpath("//div[h2]")[0]
    segments, industry, current = [], None, []
    for child in container:
        if child.tag in ("h2", "hr"):
            if current:
                segments.append((industry, current))
            current = []
            industry = text(child) if child.tag == "h2" else industry
        else:
            current.append(child)
    segments.append((industry, current))
    assert len(segments) == len(truth["testimonials"])
    by_url = {t["url"]: t for t in truth["testimonials"]}
    shapes = set()
    for industry, nodes in segments:
        links = [href for node in nodes for href in node.xpath(".//@href | @href")]
        assert len(links) == 1
        item = by_url.pop(links[0])
        block = " ".join(text(node) for node in nodes)
        assert item["industry"] == industry
        assert all(item[k] in block for k in ("quote", "name", "role", "company"))
        shapes.add(tuple(element.tag for node in nodes for element in node.iter()))
    assert not by_url and len(shapes) == 3


def test_globex_testimonials_are_slides_among_other_blocks(demo_web: DemoServer) -> None:
    truth = demo_web.sites.truth("globex")
    doc = page(demo_web, truth["testimonials_url"])
    shown = []
    for slide in doc.xpath('//div[contains(@class, "slide")]'):
        role, company = text(slide.xpath(".//span")[1]).split(", ")
        shown.append(
            {
                "name": text(slide.xpath(".//span")[0]),
                "role": role,
                "company": company,
                "quote": unquote_marks(text(slide.xpath(".//p")[0])),
                "url": slide.xpath(".//a/@href")[0],
            }
        )
    assert shown == [{k: t[k] for k in shown[0]} for t in truth["testimonials"]]


def test_customer_story_pages_repeat_the_quote(demo_web: DemoServer) -> None:
    for site in ("acme", "northwind", "globex"):
        for item in demo_web.sites.truth(site)["testimonials"]:
            doc = page(demo_web, item["url"])
            assert texts(doc, "//h1") == [item["company"]]
            assert unquote_marks(texts(doc, "//blockquote")[0]) == item["quote"]
