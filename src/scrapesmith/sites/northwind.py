"""Northwind Cloud: the "obfuscated" company site — hashed class names (``c-x7f2a``), nested divs.

Careers filter on the server with its own parameter names (``?team=&office=``) through link chips, and
list every matching job on one page grouped under team headers (the multi-category case of WebLists);
the news blog paginates with ``?p=N``; testimonials are irregular: grouped under industry headers,
separated by ``<hr>``, in three different block shapes (card, loose paragraphs, deeply nested feature).
"""

from __future__ import annotations

from datetime import date

from scrapesmith.sites.careers import CareersView, add_filtered_careers, filter_url
from scrapesmith.sites.company_data import CompanyData, company_data, company_truth
from scrapesmith.sites.html import (
    ObfuscatedClasses,
    chunk,
    document,
    esc,
    page_count,
    query_path,
    slugify,
)
from scrapesmith.sites.views import QueryRoute, SiteBuild, html_response
from scrapesmith.sites.words import INDUSTRIES

NAME = "northwind"
ROOT = f"/{NAME}"
POSTS_PER_PAGE = 4
PARAMS = {"category": "team", "location": "office", "page": "page"}


def short_date(iso: str) -> str:
    return f"{date.fromisoformat(iso):%d %b %Y}"


class Northwind:
    """Renders every page of the site; holds the hashed class map so all pages agree on it."""

    def __init__(self, seed: int, data: CompanyData) -> None:
        self.c = ObfuscatedClasses(f"{seed}:{NAME}")
        self.data = data

    def layout(self, title: str, body: str) -> str:
        c = self.c
        links = (
            ("Platform", f"{ROOT}/"),
            ("Customers", f"{ROOT}/customers/"),
            ("News", f"{ROOT}/news/"),
            ("Jobs", f"{ROOT}/jobs/"),
        )
        nav = "".join(
            f'<div class="{c("nav-item")}"><a class="{c("nav-link")}" href="{h}">{t}</a></div>'
            for t, h in links
        )
        return document(
            f"{title} · Northwind Cloud",
            (
                f'<div id="__app"><div class="{c("shell")}"><div class="{c("topbar")}"><div class="{c("brand")}">'
                f'<a href="{ROOT}/">Northwind</a></div><div class="{c("nav")}">{nav}</div></div>\n'
                f'<div class="{c("page")}"><div class="{c("content")}">\n{body}\n</div></div>\n'
                f'<div class="{c("footer")}"><div class="{c("footer-inner")}"><span>Northwind Cloud Ltd.</span>'
                f'<a href="/private/">Status admin</a><a href="{ROOT}/news/">Newsroom</a></div></div></div></div>'
            ),
        )

    def careers(self, view: CareersView) -> str:
        c, data = self.c, self.data
        chips = [
            (
                f'<a class="{c("chip", "chip-active" if not view.category else "chip-idle")}" '
                f'href="{filter_url(f"{ROOT}/jobs/", PARAMS, view.params(1, category=""))}">All teams</a>'
            )
        ]
        chips += [
            f'<a class="{c("chip", "chip-active" if slugify(t) == view.category else "chip-idle")}" '
            f'href="{filter_url(f"{ROOT}/jobs/", PARAMS, view.params(1, category=slugify(t)))}">{esc(t)}</a>'
            for t in data.categories
        ]
        offices = [
            f'<a class="{c("chip", "chip-active" if slugify(o) == view.location else "chip-idle")}" '
            f'href="{filter_url(f"{ROOT}/jobs/", PARAMS, view.params(1, location=slugify(o)))}">{esc(o)}</a>'
            for o in data.locations
        ]
        offices.insert(
            0,
            f'<a class="{c("chip")}" href="{filter_url(f"{ROOT}/jobs/", PARAMS, view.params(1, location=""))}">'
            "Any office</a>",
        )
        groups = []
        for team in data.categories:
            jobs = [j for j in view.jobs if j["category"] == team]
            if not jobs:
                continue
            cards = "".join(
                f'<div class="{c("job")}"><div class="{c("job-main")}"><a class="{c("job-link")}" href="{j["url"]}">'
                f'<div class="{c("job-name")}">{esc(j["title"])}</div></a></div><div class="{c("job-side")}">'
                f'<span class="{c("pill")}">{esc(j["location"])}</span><span class="{c("pill")}">'
                f'{esc(j["employment_type"])}</span><span class="{c("muted")}">{short_date(j["posted"])}</span>'
                "</div></div>"
                for j in jobs
            )
            groups.append(
                f'<div class="{c("group")}"><h3 class="{c("group-title")}">{esc(team)}</h3>{cards}</div>'
            )
        listing = "".join(groups) or f'<div class="{c("empty")}">Nothing here yet. Try another team.</div>'
        return self.layout(
            "Jobs",
            (
                f'<div class="{c("hero")}"><h1>Build the cloud with us</h1><div>{view.total} roles</div></div>'
                f'<div class="{c("filters")}"><div class="{c("chips")}">{"".join(chips)}</div>'
                f'<div class="{c("chips")}">{"".join(offices)}</div></div><div class="{c("board")}">{listing}</div>'
            ),
        )

    def job(self, job: dict) -> str:
        c = self.c
        text = "".join(f'<div class="{c("para")}">{esc(p)}</div>' for p in job["description"])
        return self.layout(
            job["title"],
            (
                f'<div class="{c("job-header")}"><div class="{c("eyebrow")}">{esc(job["category"])}</div>'
                f'<h1 class="{c("job-heading")}">{esc(job["title"])}</h1><div class="{c("job-meta")}">'
                f"<span>{esc(job['location'])}</span> · <span>{esc(job['employment_type'])}</span> · "
                f'<span>{short_date(job["posted"])}</span></div></div><div class="{c("job-body")}">{text}</div>'
                f'<a class="{c("apply")}" href="/private/apply?job={job["id"]}">Apply</a>'
            ),
        )

    def news_page(self, page: int) -> str:
        c, posts = self.c, self.data.posts
        pages = page_count(len(posts), POSTS_PER_PAGE)
        items = "".join(
            f'<div class="{c("news-item")}"><div class="{c("news-date")}">{short_date(p["date"])}</div>'
            f'<div><a class="{c("news-link")}" href="{p["url"]}">{esc(p["title"])}</a><div class="{c("news-by")}">'
            f'{esc(p["author"])}</div><div class="{c("news-teaser")}">{esc(p["summary"])}</div></div></div>'
            for p in chunk(posts, POSTS_PER_PAGE, page)
        )
        more = (
            f'<a class="{c("more")}" href="{query_path(f"{ROOT}/news/", {"p": str(page + 1)})}">Older news ›</a>'
            if page < pages
            else ""
        )
        back = (
            f'<a class="{c("more")}" href="{query_path(f"{ROOT}/news/", {"p": "" if page == 2 else str(page - 1)})}">'
            "‹ Newer news</a>"
            if page > 1
            else ""
        )
        return self.layout(
            "News",
            f'<h1>Newsroom</h1><div class="{c("news")}">{items}</div>'
            f'<div class="{c("pager")}">{back}{more}</div>',
        )

    def post(self, post: dict) -> str:
        c = self.c
        body = "".join(f'<div class="{c("para")}">{esc(p)}</div>' for p in post["body"])
        return self.layout(
            post["title"],
            (
                f'<div class="{c("article")}"><h1 class="{c("headline")}">{esc(post["title"])}</h1>'
                f'<div class="{c("byline")}"><span>{esc(post["author"])}</span> — '
                f'<time datetime="{post["date"]}">{short_date(post["date"])}</time></div>{body}</div>'
            ),
        )

    def testimonial_block(self, index: int, t: dict) -> str:
        c = self.c
        shape = index % 3
        if shape == 0:
            return (
                f'<div class="{c("quote-card")}"><blockquote>“{esc(t["quote"])}”</blockquote>'
                f"<p><strong>{esc(t['name'])}</strong> · {esc(t['role'])}, {esc(t['company'])}</p>"
                f'<a href="{t["url"]}">Read the story</a></div>'
            )
        if shape == 1:
            return (
                f'<p class="{c("loose-quote")}">“{esc(t["quote"])}”</p>\n'
                f'<p class="{c("loose-by")}">— <a href="{t["url"]}">{esc(t["name"])}</a>, '
                f"{esc(t['role'])} at {esc(t['company'])}</p>"
            )
        return (
            f'<div class="{c("feature")}"><div class="{c("feature-a")}"><div class="{c("feature-b")}">'
            f'<p>{esc(t["quote"])}</p></div></div><div class="{c("feature-who")}"><span>{esc(t["name"])}</span>'
            f"<span>{esc(t['role'])}</span><span>{esc(t['company'])}</span></div>"
            f'<a class="{c("feature-cta")}" href="{t["url"]}">Case study →</a></div>'
        )

    def customers(self) -> str:
        c, items = self.c, self.data.testimonials
        sections = []
        for industry in INDUSTRIES:
            blocks = [self.testimonial_block(items.index(t), t) for t in items if t["industry"] == industry]
            if blocks:
                sections.append(
                    f'<h2 class="{c("industry")}">{esc(industry)}</h2>\n' + "\n<hr>\n".join(blocks)
                )
        return self.layout(
            "Customers",
            (
                f'<h1>Teams that run on Northwind</h1><div class="{c("stats")}"><div>99.99% uptime</div>'
                f'<div>41 regions</div></div><div class="{c("stories")}">\n'
                + "\n".join(sections)
                + "\n</div>"
            ),
        )

    def story(self, t: dict) -> str:
        c = self.c
        return self.layout(
            t["company"],
            (
                f'<div class="{c("story")}"><h1>{esc(t["company"])}</h1><div class="{c("eyebrow")}">{esc(t["industry"])}'
                f"</div><blockquote>“{esc(t['quote'])}”</blockquote><div>{esc(t['name'])}, {esc(t['role'])}</div></div>"
            ),
        )


def build(seed: int) -> SiteBuild:
    data = company_data(
        seed, NAME, "Northwind Cloud", "Northwind Compute", jobs=28, posts=14, testimonials=10
    )
    for job in data.jobs:
        job["url"] = f"{ROOT}/jobs/nw-{job['id']}/"
    for post in data.posts:
        post["url"] = f"{ROOT}/news/{post['slug']}"
    for item in data.testimonials:
        item["url"] = f"{ROOT}/customers/{item['slug']}/"
    pages = Northwind(seed, data)
    site = SiteBuild(
        NAME,
        "Northwind Cloud",
        "company",
        "Company site: server-filtered jobs grouped by team; news paginated with ?p=N; "
        "irregular testimonials",
        "obfuscated hashed classes, nested divs",
    )
    not_found = pages.layout("Not found", "<h1>404</h1>")
    add_filtered_careers(site, f"{ROOT}/jobs/", data, PARAMS, None, pages.careers, not_found)
    for job in data.jobs:
        site.add_html(job["url"], pages.job(job), "detail", "job")
    news_pages = page_count(len(data.posts), POSTS_PER_PAGE)

    def news(params: dict[str, str]):
        raw = params.get("p", "1") or "1"
        page = int(raw) if raw.isdigit() else 0
        return (
            html_response(pages.news_page(page)) if 1 <= page <= news_pages else html_response(not_found, 404)
        )

    site.routes[f"{ROOT}/news/"] = QueryRoute(("p",), news)
    for page in range(1, news_pages + 1):
        site.add(
            query_path(f"{ROOT}/news/", {"p": "" if page == 1 else str(page)}),
            news({"p": str(page)}),
            "blog",
            "list",
        )
    for post in data.posts:
        site.add_html(post["url"], pages.post(post), "detail", "post")
    site.add_html(f"{ROOT}/customers/", pages.customers(), "testimonials")
    for item in data.testimonials:
        site.add_html(item["url"], pages.story(item), "detail", "story")
    site.add_html(
        f"{ROOT}/",
        pages.layout(
            "Platform", ("<h1>Northwind Compute</h1><div>Regions, networks and databases that stay up.</div>")
        ),
        "home",
    )
    site.truth = company_truth(
        NAME,
        data,
        {
            "url": f"{ROOT}/jobs/",
            "render": "server",
            "page_size": None,
            "filter_params": {"category": "team", "location": "office"},
            "filter_values": "slugified category / location names, e.g. 'customer-success'",
        },
        {"url": f"{ROOT}/news/", "page_size": POSTS_PER_PAGE, "pagination": "?p=N"},
        f"{ROOT}/customers/",
    )
    return site
