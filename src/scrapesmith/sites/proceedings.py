"""The academic proceedings site (Instruct2DS "academic"): conferences x years x tracks of papers.

Markup: semantic class names, ordered lists on list pages, an ``<article>`` with Highwire ``citation_*``
meta tags on detail pages, ``rel=prev/next`` plus numbered pagination. Each paper links a small PDF.
"""

from __future__ import annotations

import random

from scrapesmith.sites.html import chunk, document, esc, page_count
from scrapesmith.sites.pdf import tiny_pdf
from scrapesmith.sites.views import Response, SiteBuild
from scrapesmith.sites.words import (
    ABSTRACT_SENTENCES,
    ABSTRACT_VERBS,
    FIRST_NAMES,
    LAST_NAMES,
    RESEARCH_ADJECTIVES,
    RESEARCH_METHODS,
    RESEARCH_TASKS,
)

NAME = "proceedings"
ROOT = f"/{NAME}"
PAGE_SIZE = 5
YEARS = (2022, 2023, 2024)
CONFERENCES = (
    ("CLML", "Conference on Learning and Machine Learning", ("Main", "Datasets and Benchmarks")),
    ("NLPX", "Symposium on Natural Language Processing", ("Long Papers", "Findings")),
    ("VISC", "Visual Computing Conference", ("Main", "Workshops")),
)


def track_slug(track: str) -> str:
    return track.lower().replace(" ", "-")


def _title(rng: random.Random, used: set[str]) -> str:
    while True:
        pattern = rng.randrange(3)
        adjective, method, task = (
            rng.choice(RESEARCH_ADJECTIVES),
            rng.choice(RESEARCH_METHODS),
            rng.choice(RESEARCH_TASKS),
        )
        title = (
            f"{adjective} {method} for {task}",
            f"Towards {adjective} {task} with {method}",
            f"{method} Meet {task}: A {adjective} Approach",
        )[pattern]
        if title not in used:
            used.add(title)
            return title


def _abstract(rng: random.Random) -> str:
    picks = rng.sample(ABSTRACT_SENTENCES, 4)
    values = {
        "task": rng.choice(RESEARCH_TASKS).lower(),
        "other": rng.choice(RESEARCH_METHODS).lower(),
        "method_lower": rng.choice(RESEARCH_METHODS).lower(),
        "verb": rng.choice(ABSTRACT_VERBS),
        "pct": rng.randrange(20, 80),
        "n": rng.randrange(3, 12),
        "gain": f"{rng.uniform(0.5, 6):.1f}",
    }
    return " ".join(sentence.format(**values) for sentence in picks)


def _papers(rng: random.Random) -> list[dict]:
    used: set[str] = set()
    papers = []
    for acronym, _name, tracks in CONFERENCES:
        for year in YEARS:
            number = 0
            for track in tracks:
                for _ in range(rng.randrange(4, 10)):
                    number += 1
                    paper_id = f"{acronym.lower()}{year}-{number:03d}"
                    authors = [
                        f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
                        for _ in range(rng.randrange(1, 6))
                    ]
                    papers.append(
                        {
                            "id": paper_id,
                            "conference": acronym,
                            "year": year,
                            "track": track,
                            "title": _title(rng, used),
                            "authors": list(dict.fromkeys(authors)),
                            "abstract": _abstract(rng),
                            "url": f"{ROOT}/paper/{paper_id}.html",
                            "pdf_url": f"{ROOT}/pdf/{paper_id}.pdf",
                        }
                    )
    return papers


def _layout(title: str, body: str, crumbs: list[tuple[str, str]], head: str = "") -> str:
    trail = " &rsaquo; ".join(f'<a href="{href}">{esc(label)}</a>' for label, href in crumbs)
    nav = "".join(f'<li><a href="{ROOT}/{a.lower()}/">{a}</a></li>' for a, _n, _t in CONFERENCES)
    return document(
        f"{title} | Open Proceedings",
        (
            f'<header class="site-header"><a class="brand" href="{ROOT}/">Open Proceedings</a>'
            f'<nav class="main-nav"><ul>{nav}<li><a href="{ROOT}/about.html">About</a></li></ul></nav></header>\n'
            f'<nav class="breadcrumbs">{trail}</nav>\n<main id="content">\n{body}\n</main>\n'
            '<footer class="site-footer"><p>Open Proceedings is a community archive. '
            'Papers are licensed CC BY 4.0.</p><p><a href="/private/">Editor login</a></p></footer>'
        ),
        head=head,
    )


def _pagination(base: str, page: int, pages: int) -> str:
    if pages == 1:
        return ""
    link = lambda n: base if n == 1 else f"{base}page/{n}/"
    parts = [f'<a class="prev" rel="prev" href="{link(page - 1)}">&laquo; Previous</a>'] if page > 1 else []
    for n in range(1, pages + 1):
        parts.append(f'<span class="current">{n}</span>' if n == page else f'<a href="{link(n)}">{n}</a>')
    if page < pages:
        parts.append(f'<a class="next" rel="next" href="{link(page + 1)}">Next &raquo;</a>')
    return f'<nav class="pagination" aria-label="pages">{" ".join(parts)}</nav>'


def _list_pages(site: SiteBuild, acronym: str, year: int, track: str, papers: list[dict]) -> None:
    base = f"{ROOT}/{acronym.lower()}/{year}/{track_slug(track)}/"
    pages = page_count(len(papers), PAGE_SIZE)
    for page in range(1, pages + 1):
        items = "".join(
            f'<li class="paper-item"><a class="paper-title" href="{p["url"]}">{esc(p["title"])}</a>'
            f'<div class="paper-authors">{esc(", ".join(p["authors"]))}</div>'
            f'<a class="paper-pdf" href="{p["pdf_url"]}">PDF</a></li>\n'
            for p in chunk(papers, PAGE_SIZE, page)
        )
        body = (
            f"<h1>{acronym} {year} &mdash; {esc(track)}</h1>\n"
            f'<p class="count">{len(papers)} papers, page {page} of {pages}</p>\n'
            f'<ol class="paper-list" start="{(page - 1) * PAGE_SIZE + 1}">\n{items}</ol>\n'
            f"{_pagination(base, page, pages)}"
        )
        crumbs = [
            ("Home", f"{ROOT}/"),
            (acronym, f"{ROOT}/{acronym.lower()}/"),
            (str(year), f"{ROOT}/{acronym.lower()}/{year}/"),
        ]
        path = base if page == 1 else f"{base}page/{page}/"
        site.add_html(path, _layout(f"{acronym} {year} {track}", body, crumbs), "list")


def _detail_page(site: SiteBuild, paper: dict, conference_name: str) -> None:
    head = "".join(f'<meta name="citation_author" content="{esc(a)}">\n' for a in paper["authors"])
    head = (
        f'<meta name="citation_title" content="{esc(paper["title"])}">\n{head}'
        f'<meta name="citation_conference_title" content="{esc(conference_name)}">\n'
        f'<meta name="citation_publication_date" content="{paper["year"]}">\n'
    )
    authors = "".join(f'<li class="author">{esc(a)}</li>' for a in paper["authors"])
    body = (
        f'<article class="paper" id="{paper["id"]}">\n<h1 class="paper-title">{esc(paper["title"])}</h1>\n'
        f'<ul class="authors">{authors}</ul>\n'
        f'<p class="venue">{esc(conference_name)} ({paper["conference"]} {paper["year"]}), '
        f'<span class="track">{esc(paper["track"])}</span> track</p>\n'
        f'<section class="abstract"><h2>Abstract</h2><p>{esc(paper["abstract"])}</p></section>\n'
        f'<p class="downloads"><a class="pdf-link" href="{paper["pdf_url"]}">Download PDF</a> '
        f'<a class="bibtex-link" href="#bibtex">BibTeX</a></p>\n'
        f'<pre id="bibtex">@inproceedings{{{paper["id"]},\n  title = {{{esc(paper["title"])}}},\n'
        f"  year = {{{paper['year']}}}\n}}</pre>\n</article>"
    )
    acronym = paper["conference"]
    crumbs = [
        ("Home", f"{ROOT}/"),
        (acronym, f"{ROOT}/{acronym.lower()}/"),
        (str(paper["year"]), f"{ROOT}/{acronym.lower()}/{paper['year']}/"),
        (paper["track"], f"{ROOT}/{acronym.lower()}/{paper['year']}/{track_slug(paper['track'])}/"),
    ]
    site.add_html(paper["url"], _layout(paper["title"], body, crumbs, head), "detail", "paper")
    pdf = tiny_pdf(paper["title"], [", ".join(paper["authors"]), f"{acronym} {paper['year']}"])
    site.add(paper["pdf_url"], Response(200, "application/pdf", pdf), "file", "pdf")


def _overview_pages(site: SiteBuild, papers: list[dict]) -> None:
    rows = []
    for acronym, name, tracks in CONFERENCES:
        years = "".join(f'<li><a href="{ROOT}/{acronym.lower()}/{y}/">{acronym} {y}</a></li>' for y in YEARS)
        rows.append(f'<section class="conference"><h2>{esc(name)} ({acronym})</h2><ul>{years}</ul></section>')
        site.add_html(
            f"{ROOT}/{acronym.lower()}/",
            _layout(acronym, f"<h1>{esc(name)}</h1><ul>{years}</ul>", [("Home", f"{ROOT}/")]),
            "home",
        )
        for year in YEARS:
            links = "".join(
                f'<li><a href="{ROOT}/{acronym.lower()}/{year}/{track_slug(t)}/">{esc(t)}</a> '
                f'<span class="count">({sum(1 for p in papers if p["conference"] == acronym and p["year"] == year and p["track"] == t)} papers)</span></li>'
                for t in tracks
            )
            body = f'<h1>{acronym} {year}</h1><p>{esc(name)}</p><ul class="tracks">{links}</ul>'
            site.add_html(
                f"{ROOT}/{acronym.lower()}/{year}/",
                _layout(
                    f"{acronym} {year}", body, [("Home", f"{ROOT}/"), (acronym, f"{ROOT}/{acronym.lower()}/")]
                ),
                "home",
            )
    site.add_html(f"{ROOT}/", _layout("Home", "<h1>Open Proceedings</h1>" + "".join(rows), []), "home")
    site.add_html(
        f"{ROOT}/about.html",
        _layout(
            "About", "<h1>About</h1><p>An open archive of conference proceedings.</p>", [("Home", f"{ROOT}/")]
        ),
        "about",
    )


def build(seed: int) -> SiteBuild:
    rng = random.Random(f"{seed}:{NAME}")
    papers = _papers(rng)
    site = SiteBuild(
        NAME,
        "Open Proceedings",
        "academic",
        "Conference proceedings: paginated paper lists per conference, year and track; "
        "paper pages with authors, abstract and PDF",
        "semantic classes, ordered lists",
    )
    names = {acronym: name for acronym, name, _tracks in CONFERENCES}
    for acronym, _name, tracks in CONFERENCES:
        for year in YEARS:
            for track in tracks:
                selected = [
                    p
                    for p in papers
                    if p["conference"] == acronym and p["year"] == year and p["track"] == track
                ]
                _list_pages(site, acronym, year, track, selected)
    for paper in papers:
        _detail_page(site, paper, names[paper["conference"]])
    _overview_pages(site, papers)
    site.truth = {
        "site": NAME,
        "conferences": [
            {"acronym": a, "name": n, "years": list(YEARS), "tracks": list(t), "url": f"{ROOT}/{a.lower()}/"}
            for a, n, t in CONFERENCES
        ],
        "page_size": PAGE_SIZE,
        "listings": [
            {
                "conference": a,
                "year": y,
                "track": t,
                "url": f"{ROOT}/{a.lower()}/{y}/{track_slug(t)}/",
                "paper_count": n,
                "pages": page_count(n, PAGE_SIZE),
            }
            for a, _n, tracks in CONFERENCES
            for y in YEARS
            for t in tracks
            for n in [sum(1 for p in papers if (p["conference"], p["year"], p["track"]) == (a, y, t))]
        ],
        "papers": papers,
    }
    return site
