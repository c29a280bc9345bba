"""Pages outside any site: the root index, ``robots.txt``, the disallowed ``/private/`` area, 404 pages."""

from __future__ import annotations

from scrapesmith.sites.html import document, esc
from scrapesmith.sites.views import Response, SiteBuild, html_response, json_response

ROBOTS_TXT = """\
# The scrapesmith demo web. Crawl politely; the private area is off limits.
User-agent: *
Disallow: /private/
Allow: /
"""


def root_pages(sites: list[SiteBuild]) -> dict[str, Response]:
    rows = "".join(
        f'<tr><td><a href="/{s.name}/">{esc(s.title)}</a></td><td><code>/{s.name}/</code></td>'
        f"<td>{esc(s.category)}</td><td>{esc(s.description)}</td><td>{esc(s.markup)}</td>"
        f'<td><a href="/{s.name}/_truth.json">truth</a></td></tr>\n'
        for s in sites
    )
    index = document(
        "scrapesmith demo web",
        (
            "<h1>scrapesmith demo web</h1><p>Deterministic demonstration sites generated from a seed and served "
            "locally. Ground truth for every site is at <code>/&lt;site&gt;/_truth.json</code>.</p>"
            '<table id="sites"><thead><tr><th>Site</th><th>Path</th><th>Kind</th><th>Content</th><th>Markup</th>'
            f"<th>Truth</th></tr></thead><tbody>\n{rows}</tbody></table>"
        ),
    )
    private = document("Private", "<h1>Staff only</h1><p>This area is disallowed by robots.txt.</p>")
    return {
        "/": html_response(index),
        "/robots.txt": Response(200, "text/plain; charset=utf-8", ROBOTS_TXT.encode()),
        "/private/": html_response(private),
        "/private/apply": html_response(
            document("Apply", "<h1>Application form</h1><p>Sign in to apply.</p>")
        ),
    }


NOT_FOUND_HTML = html_response(document("Not found", "<h1>404 Not Found</h1><p>No such page.</p>"), 404)
NOT_FOUND_JSON = json_response({"error": "not found"}, 404)
