"""Globex Systems: the JavaScript company site — utility classes and a client-rendered job board.

The careers page ships an empty ``#job-list`` container and a ``<noscript>`` hint; ``careers.js`` fetches
``/globex/api/jobs.json``, renders 6 jobs, reveals 6 more per "Load more" click and filters with two
``<select>`` elements entirely in the browser. The blog (``/resources/blog/N/``) mixes a featured copy
of the newest post and promotional cards (webinars) into the grid; testimonials sit between a logo wall
and a stats band.
"""

from __future__ import annotations

from scrapesmith.sites.company_data import CompanyData, company_data, company_truth, job_truth
from scrapesmith.sites.html import chunk, document, esc, page_count, slugify
from scrapesmith.sites.views import Response, SiteBuild, json_response

NAME = "globex"
ROOT = f"/{NAME}"
POSTS_PER_PAGE = 6
JOBS_PER_BATCH = 6
PROMOS = ("Webinar: securing CI pipelines", "E-book: the zero trust handbook", "Webinar: incident drills")

CAREERS_JS = """\
(function () {
  var BATCH = __BATCH__;
  var list = document.getElementById('job-list');
  var more = document.getElementById('load-more');
  var category = document.getElementById('filter-category');
  var location = document.getElementById('filter-location');
  var count = document.getElementById('job-count');
  var jobs = [], shown = BATCH;
  function matching() {
    return jobs.filter(function (j) {
      return (!category.value || j.category === category.value) &&
             (!location.value || j.location === location.value);
    });
  }
  function render() {
    var rows = matching();
    list.innerHTML = '';
    rows.slice(0, shown).forEach(function (j) {
      var li = document.createElement('li');
      li.className = 'job-card rounded-lg border p-4 flex justify-between';
      li.setAttribute('data-job-id', j.id);
      var a = document.createElement('a');
      a.className = 'job-title font-semibold text-blue-700';
      a.href = j.url; a.textContent = j.title;
      var meta = document.createElement('span');
      meta.className = 'job-meta text-sm text-gray-500';
      meta.textContent = j.category + ' \\u00b7 ' + j.location;
      li.appendChild(a); li.appendChild(meta); list.appendChild(li);
    });
    count.textContent = rows.length + ' open roles';
    more.hidden = shown >= rows.length;
  }
  more.addEventListener('click', function () { shown += BATCH; render(); });
  [category, location].forEach(function (s) {
    s.addEventListener('change', function () { shown = BATCH; render(); });
  });
  fetch('__API__').then(function (r) { return r.json(); }).then(function (data) {
    jobs = data.jobs; render();
  });
})();
""".replace("__BATCH__", str(JOBS_PER_BATCH)).replace("__API__", f"{ROOT}/api/jobs.json")


def _layout(title: str, body: str, scripts: str = "") -> str:
    links = (
        ("Platform", f"{ROOT}/"),
        ("Customers", f"{ROOT}/customers/"),
        ("Blog", f"{ROOT}/resources/blog/"),
        ("Careers", f"{ROOT}/careers/"),
    )
    nav = "".join(f'<a class="px-3 py-2 text-sm hover:underline" href="{h}">{t}</a>' for t, h in links)
    return document(
        f"{title} | Globex Systems",
        (
            f'<div class="min-h-screen flex flex-col"><header class="flex items-center justify-between px-8 py-4 '
            f'border-b"><a class="text-xl font-bold" href="{ROOT}/">Globex</a><nav class="flex gap-2">{nav}</nav>'
            f'</header>\n<main class="flex-1 mx-auto max-w-5xl px-6 py-10">\n{body}\n</main>\n'
            '<footer class="px-8 py-6 text-xs text-gray-500 border-t"><span>Globex Systems GmbH</span> · '
            '<a href="/private/">Admin</a></footer></div>' + scripts
        ),
    )


def _careers(data: CompanyData) -> str:
    def select(ident: str, label: str, values: list[str]) -> str:
        options = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
        return (
            f'<label class="text-sm">{label} <select id="{ident}" class="border rounded px-2 py-1">'
            f'<option value="">All</option>{options}</select></label>'
        )

    return _layout(
        "Careers",
        (
            '<section class="mb-8"><h1 class="text-3xl font-bold">Careers at Globex</h1>'
            '<p id="job-count" class="text-gray-500"></p></section>'
            f'<div class="flex gap-4 mb-6">{select("filter-category", "Department", data.categories)}'
            f"{select('filter-location', 'Location', data.locations)}</div>"
            '<ul id="job-list" class="job-list grid gap-3" aria-live="polite"></ul>'
            '<noscript><p class="p-4 bg-yellow-50">Our job board needs JavaScript. Please enable JavaScript to '
            "see open positions.</p></noscript>"
            '<button id="load-more" class="mt-6 px-4 py-2 rounded bg-blue-700 text-white" type="button" hidden>'
            "Load more</button>"
        ),
        f'\n<script src="{ROOT}/static/careers.js" defer></script>',
    )


def _job(job: dict) -> str:
    text = "".join(f'<p class="mb-3">{esc(p)}</p>' for p in job["description"])
    return _layout(
        job["title"],
        (
            f'<div class="text-sm uppercase tracking-wide text-blue-700">{esc(job["category"])}</div>'
            f'<h1 class="text-3xl font-bold mb-2">{esc(job["title"])}</h1>'
            f'<div class="flex gap-3 text-gray-500 mb-6"><span data-field="location">{esc(job["location"])}</span>'
            f'<span data-field="type">{esc(job["employment_type"])}</span>'
            f'<time datetime="{job["posted"]}">{job["posted"]}</time></div>{text}'
            f'<a class="px-4 py-2 rounded bg-blue-700 text-white" href="/private/apply?job={job["id"]}">Apply</a>'
        ),
    )


def _post_card(post: dict, featured: bool = False) -> str:
    size = "col-span-2 p-8 bg-gray-50" if featured else "p-4"
    label = '<span class="text-xs uppercase text-orange-600">Featured</span>' if featured else ""
    return (
        f'<div class="rounded-xl border {size}">{label}<a class="block text-lg font-semibold" '
        f'href="{post["url"]}">{esc(post["title"])}</a><div class="text-sm text-gray-500">'
        f'<time datetime="{post["date"]}">{post["date"]}</time> · {esc(post["author"])}</div>'
        f'<p class="mt-2">{esc(post["summary"])}</p></div>'
    )


def _promo_card(title: str) -> str:
    return (
        f'<div class="rounded-xl border p-4 bg-blue-50"><span class="text-xs uppercase">Resource</span>'
        f'<a class="block text-lg font-semibold" href="{ROOT}/resources/{slugify(title)}/">{esc(title)}</a>'
        '<p class="mt-2">Free, on demand.</p></div>'
    )


def _blog(site: SiteBuild, data: CompanyData) -> None:
    pages = page_count(len(data.posts), POSTS_PER_PAGE)
    link = lambda n: f"{ROOT}/resources/blog/" if n == 1 else f"{ROOT}/resources/blog/{n}/"
    for page in range(1, pages + 1):
        cards = [_post_card(p) for p in chunk(data.posts, POSTS_PER_PAGE, page)]
        cards.insert(min(3, len(cards)), _promo_card(PROMOS[(page - 1) % len(PROMOS)]))
        featured = _post_card(data.posts[0], featured=True) if page == 1 else ""
        numbers = " ".join(
            f'<span class="px-2 font-bold">{n}</span>'
            if n == page
            else f'<a class="px-2" href="{link(n)}">{n}</a>'
            for n in range(1, pages + 1)
        )
        site.add_html(
            link(page),
            _layout(
                "Blog",
                (
                    f'<h1 class="text-3xl font-bold mb-6">Globex Blog</h1><div class="grid grid-cols-2 gap-6">{featured}'
                    f'{"".join(cards)}</div><div class="flex justify-center mt-8">{numbers}</div>'
                ),
            ),
            "blog",
            "list",
        )
    for post in data.posts:
        body = "".join(f'<p class="mb-4">{esc(p)}</p>' for p in post["body"])
        site.add_html(
            post["url"],
            _layout(
                post["title"],
                (
                    f'<h1 class="text-4xl font-bold">{esc(post["title"])}</h1><div class="text-gray-500 my-4">'
                    f'<span data-field="author">{esc(post["author"])}</span> · <time datetime="{post["date"]}">'
                    f'{post["date"]}</time></div><div class="prose">{body}</div>'
                ),
            ),
            "detail",
            "post",
        )
    for title in PROMOS:
        site.add_html(
            f"{ROOT}/resources/{slugify(title)}/",
            _layout(title, f"<h1>{esc(title)}</h1><p>Register to watch.</p>"),
            "other",
        )


def _customers(site: SiteBuild, data: CompanyData) -> None:
    logos = "".join(
        f'<div class="p-4 grayscale">{esc(name)}</div>'
        for name in ("Initech", "Umbrella Labs", "Hooli", "Vandelay Industries")
    )
    slides = "".join(
        f'<div class="slide rounded-2xl p-8 shadow" data-index="{i}"><p class="text-lg">“{esc(t["quote"])}”</p>'
        f'<div class="flex flex-col mt-4"><span class="font-semibold">{esc(t["name"])}</span>'
        f'<span class="text-sm text-gray-500">{esc(t["role"])}, {esc(t["company"])}</span></div>'
        f'<a class="text-blue-700" href="{t["url"]}">Read story →</a></div>'
        for i, t in enumerate(data.testimonials)
    )
    site.add_html(
        f"{ROOT}/customers/",
        _layout(
            "Customers",
            (
                '<h1 class="text-3xl font-bold">Trusted by security teams</h1>'
                f'<div class="grid grid-cols-4 gap-4 my-8">{logos}</div>'
                f'<div class="carousel grid gap-6">{slides}</div>'
                '<div class="flex gap-8 my-8"><div><b>3,000+</b> customers</div><div><b>24/7</b> support</div></div>'
            ),
        ),
        "testimonials",
    )
    for t in data.testimonials:
        site.add_html(
            t["url"],
            _layout(
                t["company"],
                (
                    f'<h1 class="text-3xl">{esc(t["company"])}</h1><p class="text-sm">{esc(t["industry"])}</p>'
                    f'<blockquote class="text-xl">“{esc(t["quote"])}”</blockquote><p>{esc(t["name"])}, {esc(t["role"])}</p>'
                ),
            ),
            "detail",
            "story",
        )


def build(seed: int) -> SiteBuild:
    data = company_data(seed, NAME, "Globex Systems", "Globex Shield", jobs=26, posts=15, testimonials=7)
    for job in data.jobs:
        job["url"] = f"{ROOT}/careers/job/{job['id']}.html"
    for post in data.posts:
        post["url"] = f"{ROOT}/resources/blog/{post['slug']}.html"
    for item in data.testimonials:
        item["url"] = f"{ROOT}/customers/{item['slug']}/"
    site = SiteBuild(
        NAME,
        "Globex Systems",
        "company",
        "Company site: JavaScript job board (JSON endpoint, Load more, client-side filters); "
        "blog grid with promos; testimonial carousel",
        "utility classes, client-side rendering",
    )
    site.add_html(f"{ROOT}/careers/", _careers(data), "careers", "list")
    site.add(
        f"{ROOT}/static/careers.js",
        Response(200, "application/javascript; charset=utf-8", CAREERS_JS.encode()),
        "file",
    )
    site.add(f"{ROOT}/api/jobs.json", json_response({"jobs": [job_truth(j) for j in data.jobs]}), "api")
    for job in data.jobs:
        site.add_html(job["url"], _job(job), "detail", "job")
    _blog(site, data)
    _customers(site, data)
    site.add_html(
        f"{ROOT}/",
        _layout(
            "Security platform",
            ('<h1 class="text-5xl font-bold">Globex Shield</h1><p>Zero trust for every workload.</p>'),
        ),
        "home",
    )
    site.truth = company_truth(
        NAME,
        data,
        {
            "url": f"{ROOT}/careers/",
            "render": "javascript",
            "api": f"{ROOT}/api/jobs.json",
            "batch_size": JOBS_PER_BATCH,
            "load_more": "#load-more",
            "filter_selects": {"category": "#filter-category", "location": "#filter-location"},
            "filter_values": "category / location names as shown",
        },
        {"url": f"{ROOT}/resources/blog/", "page_size": POSTS_PER_PAGE, "pagination": "/resources/blog/N/"},
        f"{ROOT}/customers/",
    )
    return site
