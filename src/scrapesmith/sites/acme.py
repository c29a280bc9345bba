"""Acme Analytics: the "clean" company site — semantic class names, a jobs table, regular cards.

Careers filter on the server (``?category=&location=&page=``, 8 jobs per page, a GET form plus
category links); the blog paginates as ``/blog/page/N/``; testimonials are uniform ``<figure>`` cards.
"""

from __future__ import annotations

from datetime import date

from scrapesmith.sites.careers import CareersView, add_filtered_careers, filter_url
from scrapesmith.sites.company_data import CompanyData, company_data, company_truth
from scrapesmith.sites.html import chunk, document, esc, page_count, slugify
from scrapesmith.sites.views import SiteBuild

NAME = "acme"
ROOT = f"/{NAME}"
JOBS_PER_PAGE = 8
POSTS_PER_PAGE = 5
PARAMS = {"category": "category", "location": "location", "page": "page"}


def long_date(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day:%B} {day.day}, {day.year}"


def _layout(title: str, body: str, active: str = "") -> str:
    items = (
        ("Product", f"{ROOT}/"),
        ("Customers", f"{ROOT}/customers/"),
        ("Blog", f"{ROOT}/blog/"),
        ("Careers", f"{ROOT}/careers/"),
        ("About", f"{ROOT}/about/"),
    )
    nav = "".join(
        f'<li class="nav-item{" is-active" if label == active else ""}"><a href="{href}">{label}</a></li>'
        for label, href in items
    )
    return document(
        f"{title} — Acme Analytics",
        (
            f'<header class="site-header"><a class="logo" href="{ROOT}/">Acme Analytics</a>'
            f'<nav class="site-nav"><ul class="nav-list">{nav}</ul></nav>'
            f'<a class="cta-button" href="{ROOT}/about/#demo">Book a demo</a></header>\n'
            f'<main class="site-main">\n{body}\n</main>\n'
            '<footer class="site-footer"><div class="footer-columns"><ul><li><a href="'
            + ROOT
            + '/blog/">Blog</a>'
            '</li><li><a href="'
            + ROOT
            + '/careers/">Careers</a></li></ul><ul><li><a href="/private/">Partner '
            'portal</a></li><li><a href="' + ROOT + '/about/">Contact</a></li></ul></div>'
            '<p class="legal">&copy; 2024 Acme Analytics, Inc. All rights reserved.</p></footer>'
        ),
    )


def _filters(data: CompanyData, view: CareersView) -> str:
    def options(values: list[str], chosen: str, everything: str) -> str:
        rows = [f'<option value="">{everything}</option>']
        rows += [
            f'<option value="{slugify(v)}"{" selected" if slugify(v) == chosen else ""}>{esc(v)}</option>'
            for v in values
        ]
        return "".join(rows)

    links = "".join(
        f'<li><a href="{filter_url(f"{ROOT}/careers/", PARAMS, {"category": slugify(c)})}">{esc(c)} '
        f'<span class="count">({sum(1 for j in data.jobs if j["category"] == c)})</span></a></li>'
        for c in data.categories
    )
    return (
        f'<form class="job-filters" method="get" action="{ROOT}/careers/">'
        f'<label>Category <select name="category">{options(data.categories, view.category, "All categories")}'
        f'</select></label> <label>Location <select name="location">'
        f"{options(data.locations, view.location, 'All locations')}</select></label> "
        f'<button type="submit">Filter</button></form>\n'
        f'<aside class="category-links"><h2>Browse by team</h2><ul>{links}</ul></aside>'
    )


def _careers(data: CompanyData, view: CareersView) -> str:
    rows = "".join(
        f'<tr class="job-row"><td class="job-title"><a class="job-link" href="{j["url"]}">{esc(j["title"])}</a></td>'
        f'<td class="job-category">{esc(j["category"])}</td><td class="job-location">{esc(j["location"])}</td>'
        f'<td class="job-type">{esc(j["employment_type"])}</td>'
        f'<td class="job-posted"><time datetime="{j["posted"]}">{long_date(j["posted"])}</time></td></tr>\n'
        for j in view.jobs
    )
    table = (
        f'<table class="jobs-table"><thead><tr><th>Position</th><th>Team</th><th>Location</th><th>Type</th>'
        f"<th>Posted</th></tr></thead><tbody>\n{rows}</tbody></table>"
        if view.jobs
        else '<p class="no-results">No open positions match your filters.</p>'
    )
    pager = []
    if view.page > 1:
        pager.append(
            f'<a class="page-prev" rel="prev" href="{filter_url(f"{ROOT}/careers/", PARAMS, view.params(view.page - 1))}">Previous</a>'
        )
    pager += [
        f'<span class="page-current">{n}</span>'
        if n == view.page
        else f'<a class="page-link" href="{filter_url(f"{ROOT}/careers/", PARAMS, view.params(n))}">{n}</a>'
        for n in range(1, view.pages + 1)
    ]
    if view.page < view.pages:
        pager.append(
            f'<a class="page-next" rel="next" href="{filter_url(f"{ROOT}/careers/", PARAMS, view.params(view.page + 1))}">Next</a>'
        )
    return _layout(
        "Careers",
        (
            f'<section class="careers-hero"><h1>Join Acme Analytics</h1><p>{view.total} open positions</p></section>\n'
            f'{_filters(data, view)}\n<section class="job-results">{table}</section>\n'
            f'<nav class="pagination">{" ".join(pager) if view.pages > 1 else ""}</nav>'
        ),
        "Careers",
    )


def _job_page(job: dict) -> str:
    paragraphs = "".join(f"<p>{esc(p)}</p>" for p in job["description"])
    return _layout(
        job["title"],
        (
            f'<article class="job-posting"><p class="breadcrumb"><a href="{ROOT}/careers/">Careers</a> / '
            f'{esc(job["category"])}</p><h1 class="job-title">{esc(job["title"])}</h1>'
            f'<ul class="job-facts"><li class="job-category">{esc(job["category"])}</li>'
            f'<li class="job-location">{esc(job["location"])}</li><li class="job-type">{esc(job["employment_type"])}</li>'
            f'<li class="job-posted">Posted <time datetime="{job["posted"]}">{long_date(job["posted"])}</time></li></ul>'
            f'<div class="job-description">{paragraphs}</div>'
            f'<a class="apply-button" href="/private/apply?job={job["id"]}">Apply now</a></article>'
        ),
        "Careers",
    )


def _blog(site: SiteBuild, data: CompanyData) -> None:
    pages = page_count(len(data.posts), POSTS_PER_PAGE)
    for page in range(1, pages + 1):
        cards = "".join(
            f'<article class="post-card"><h2 class="post-title"><a href="{p["url"]}">{esc(p["title"])}</a></h2>'
            f'<p class="post-meta"><time datetime="{p["date"]}">{long_date(p["date"])}</time> by '
            f'<span class="post-author">{esc(p["author"])}</span></p><p class="post-summary">{esc(p["summary"])}</p>'
            f"</article>\n"
            for p in chunk(data.posts, POSTS_PER_PAGE, page)
        )
        link = lambda n: f"{ROOT}/blog/" if n == 1 else f"{ROOT}/blog/page/{n}/"
        older = f'<a class="older" rel="next" href="{link(page + 1)}">Older posts</a>' if page < pages else ""
        newer = f'<a class="newer" rel="prev" href="{link(page - 1)}">Newer posts</a>' if page > 1 else ""
        site.add_html(
            link(page),
            _layout(
                "Blog",
                (
                    f'<h1>The Acme Blog</h1><div class="post-list">\n{cards}</div>'
                    f'<nav class="pagination">{newer} <span>Page {page} of {pages}</span> {older}</nav>'
                    '<aside class="newsletter"><h2>Subscribe</h2><p>Get new posts by email.</p></aside>'
                ),
                "Blog",
            ),
            "blog",
            "list",
        )
    for post in data.posts:
        body = "".join(f"<p>{esc(p)}</p>" for p in post["body"])
        site.add_html(
            post["url"],
            _layout(
                post["title"],
                (
                    f'<article class="blog-post"><h1 class="post-title">{esc(post["title"])}</h1>'
                    f'<p class="post-meta">By <span class="post-author">{esc(post["author"])}</span> on '
                    f'<time datetime="{post["date"]}">{long_date(post["date"])}</time></p>'
                    f'<div class="post-body">{body}</div></article>'
                ),
                "Blog",
            ),
            "detail",
            "post",
        )


def _customers(site: SiteBuild, data: CompanyData) -> None:
    cards = "".join(
        f'<figure class="testimonial"><blockquote class="testimonial-quote">“{esc(t["quote"])}”</blockquote>'
        f'<figcaption><span class="testimonial-name">{esc(t["name"])}</span>, '
        f'<span class="testimonial-role">{esc(t["role"])}</span> at '
        f'<a class="testimonial-company" href="{t["url"]}">{esc(t["company"])}</a></figcaption></figure>\n'
        for t in data.testimonials
    )
    site.add_html(
        f"{ROOT}/customers/",
        _layout(
            "Customers",
            (f'<h1>Loved by data teams</h1><section class="testimonial-grid">\n{cards}</section>'),
            "Customers",
        ),
        "testimonials",
    )
    for t in data.testimonials:
        site.add_html(
            t["url"],
            _layout(
                t["company"],
                (
                    f'<article class="case-study"><h1>{esc(t["company"])}</h1><p class="industry">{esc(t["industry"])}</p>'
                    f"<blockquote>“{esc(t['quote'])}”</blockquote><p>— {esc(t['name'])}, {esc(t['role'])}</p></article>"
                ),
                "Customers",
            ),
            "detail",
            "story",
        )


def build(seed: int) -> SiteBuild:
    data = company_data(seed, NAME, "Acme Analytics", "Acme Insight", jobs=30, posts=13, testimonials=8)
    for job in data.jobs:
        job["url"] = f"{ROOT}/careers/jobs/{job['id']}-{slugify(job['title'])}/"
    for post in data.posts:
        post["url"] = f"{ROOT}/blog/{post['date'][:4]}/{post['date'][5:7]}/{post['slug']}/"
    for item in data.testimonials:
        item["url"] = f"{ROOT}/customers/{item['slug']}/"
    site = SiteBuild(
        NAME,
        "Acme Analytics",
        "company",
        "Company site: server-filtered, paginated jobs table; paginated blog; testimonial cards",
        "semantic BEM-like classes, tables",
    )
    not_found = _layout("Not found", "<h1>Page not found</h1>")
    add_filtered_careers(
        site, f"{ROOT}/careers/", data, PARAMS, JOBS_PER_PAGE, lambda view: _careers(data, view), not_found
    )
    for job in data.jobs:
        site.add_html(job["url"], _job_page(job), "detail", "job")
    _blog(site, data)
    _customers(site, data)
    site.add_html(
        f"{ROOT}/",
        _layout(
            "Analytics for everyone",
            (
                f'<section class="hero"><h1>{esc(data.product)}: analytics for everyone</h1>'
                f"<p>Dashboards your whole company can read.</p></section>"
                f'<section class="latest"><h2>From the blog</h2><ul>'
                + "".join(f'<li><a href="{p["url"]}">{esc(p["title"])}</a></li>' for p in data.posts[:3])
                + "</ul></section>"
            ),
        ),
        "home",
    )
    site.add_html(
        f"{ROOT}/about/", _layout("About", "<h1>About Acme</h1><p>Founded 2015. 240 people.</p>"), "about"
    )
    site.truth = company_truth(
        NAME,
        data,
        {
            "url": f"{ROOT}/careers/",
            "render": "server",
            "page_size": JOBS_PER_PAGE,
            "filter_params": {"category": "category", "location": "location", "page": "page"},
            "filter_values": "slugified category / location names, e.g. 'customer-success'",
        },
        {"url": f"{ROOT}/blog/", "page_size": POSTS_PER_PAGE, "pagination": "/blog/page/N/"},
        f"{ROOT}/customers/",
    )
    return site
