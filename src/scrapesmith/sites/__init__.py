"""The local demo web: deterministic websites generated from a seed and served on 127.0.0.1.

Why: every capability (fetching, induction, list extraction, collection, agents) needs real websites
with known answers, and tests must never touch the internet. ``build_sites(seed)`` renders every page
into memory (about 700 responses in ~0.1 s); ``serve_sites()`` serves them from a dict, so benchmarks
measure the client. Sites differ in markup on purpose (tables vs cards vs definition lists, semantic vs
hashed vs utility class names, server vs client rendering) so no method can overfit one template.

Usage::

    with serve_sites(port=0, seed=7) as server:      # server.base_url == "http://127.0.0.1:PORT"
        server.url("/acme/careers/")                 # absolute URL of a path
        server.sites.truth("acme")["jobs"]            # ground truth, also at /acme/_truth.json
        server.sites.urls("proceedings", kind="detail")
        server.request_log.snapshot()                 # [(time.monotonic(), method, target), ...]

Server-wide paths: ``/`` (site index), ``/robots.txt`` (``Disallow: /private/``), ``/private/`` and
``/private/apply`` (exist, but robots forbids them; job "Apply" links and footers point there), and
``/<site>/_truth.json``. A path missing its trailing slash answers 301 to the slashed path; unknown paths
answer 404 (JSON under ``/api/``). Query parameters a page does not use are ignored.

Page kinds (``SiteCollection.urls(kind=...)``; a page has one or more): ``home``, ``about``, ``list``
(paginated lists and tables of records), ``detail`` (one record: ``paper``, ``book``, ``job``, ``post``,
``story``), ``table``, ``careers`` (+ ``filtered`` for filter variants), ``blog``, ``testimonials``,
``api``, ``file`` (``pdf``, JavaScript), ``truth``, ``root``, ``other``.

All URLs in ground truth are paths; join them with ``server.base_url``. Dates in truth are ISO
(``YYYY-MM-DD``) unless noted; pages show them in their own format with ``<time datetime>`` where a
site uses it.

Sites (seed 7 figures):

``proceedings`` — Open Proceedings (Instruct2DS academic). Conferences CLML, NLPX, VISC x years
2022-2024 x two tracks each, 111 papers. ``/proceedings/`` ; ``/<conf>/`` and ``/<conf>/<year>/`` (track
links); list ``/<conf>/<year>/<track-slug>/`` and ``.../page/N/`` (5 per page, ``rel=next``);
detail ``/paper/<id>.html`` (``h1.paper-title``, ``li.author``, ``section.abstract p``,
``a.pdf-link``, ``citation_*`` meta); ``/pdf/<id>.pdf`` a one-page PDF.
Truth: ``{site, conferences:[{acronym,name,years,tracks,url}], page_size, listings:[{conference,year,
track,url,paper_count,pages}], papers:[{id,conference,year,track,title,authors:[..],abstract,url,
pdf_url}]}``.

``stocks`` — MarketBoard (Instruct2DS finance). Symbols ACMR, BLTX, CRVN, DLPH, QNTM; trading days
2023-01-03..2024-06-28; quarterly dividends on three symbols, a 2:1 split of QNTM on 2023-09-15.
``/stocks/symbol/<SYM>/`` (quarter links), ``/stocks/symbol/<SYM>/history/<YYYY-Qn>/`` (table
``table.hist``: Date, Open, High, Low, Close, Adj Close (4 decimals), Volume with thousands separators;
``rel=prev/next`` quarters), ``/stocks/api/`` (API docs), ``/stocks/api/symbols``,
``/stocks/api/prices?symbol=&start=&end=`` (inclusive ISO dates, optional; 400 ``{"error"}`` on a
missing symbol / malformed date / start after end, 404 on an unknown symbol) answering
``{symbol,start,end,count,prices:[row]}``. Truth: ``{site,start_date,end_date,quarters,symbols:[{symbol,
name,sector,exchange,url}],price_fields,prices:[{symbol,date,open,high,low,close,volume,adj_open,adj_high,
adj_low,adj_close,adj_volume,div_cash,split_factor}]}`` — rows identical to the API's.

``sports`` — Hoops Reference (Instruct2DS sports). 8 teams, seasons 2021-2024, 48 players.
``/sports/season/<year>/standings.html`` (``table#standings``, cells ``data-stat=...``, a
``tfoot`` league-average row that is not a team), ``/sports/season/<year>/players/`` and ``.../2/``...
(``table#per_game``, 20 per page), ``/sports/team/<ABBR>/`` (season history), ``/sports/team/<ABBR>/<year>/``
(roster). Percentages show as ``.512``. Truth: ``{site,league,seasons,teams:[{abbreviation,name,city,url}],
team_stat_fields,player_stat_fields,team_seasons:[{team,abbreviation,year,games,wins,losses,win_pct,
points_per_game,opp_points_per_game,rebounds_per_game,assists_per_game,fg_pct}],player_seasons:[{player,
team(abbreviation),year,games,minutes_per_game,points_per_game,rebounds_per_game,assists_per_game,fg_pct}]}``.

Company sites (WebLists jobs, job categories, blogs, testimonials). Truth for each: ``{site,company,
product,careers:{url,render,...},blog:{url,page_size,pagination},testimonials_url,categories,locations,
jobs:[{id,title,category,location,employment_type,posted,url}],posts:[{title,url,date,author,summary}],
testimonials:[{name,role,company,industry,quote,url}]}`` (quotes without the decorative “ ” marks).

``acme`` — Acme Analytics, semantic classes. Careers ``/acme/careers/?category=<slug>&location=<slug>
&page=N`` (server-side, 8 per page, GET form + category links, ``table.jobs-table tr.job-row``);
jobs ``/acme/careers/jobs/<id>-<slug>/``; blog ``/acme/blog/``, ``/acme/blog/page/N/`` (5 per page,
``article.post-card``), posts ``/acme/blog/<yyyy>/<mm>/<slug>/``; testimonials ``/acme/customers/``
(uniform ``figure.testimonial``), stories ``/acme/customers/<slug>/``.

``northwind`` — Northwind Cloud, hashed classes (``c-xxxxx``). Careers ``/northwind/jobs/?team=<slug>
&office=<slug>`` (server-side, link chips, all matches on one page grouped under ``<h3>`` team headers);
jobs ``/northwind/jobs/nw-<id>/``; news ``/northwind/news/`` and ``?p=N`` (4 per page), posts
``/northwind/news/<slug>``; testimonials ``/northwind/customers/``: irregular — under ``<h2>`` industry
headers, split by ``<hr>``, in three shapes (card with blockquote; two loose ``<p>`` siblings; nested
feature block with name/role/company spans).

``globex`` — Globex Systems, utility classes, JavaScript careers. ``/globex/careers/`` ships an empty
``ul#job-list`` plus ``<noscript>``; ``/globex/static/careers.js`` loads ``/globex/api/jobs.json``
(``{jobs:[job truth rows]}``), shows 6, ``button#load-more`` adds 6, ``select#filter-category`` /
``select#filter-location`` filter in the browser (values are the names). Jobs ``/globex/careers/job/<id>.html``;
blog ``/globex/resources/blog/`` and ``/globex/resources/blog/N/`` (6 per page; page 1 repeats the
newest post as "Featured", every page has a promo card that is not a post); posts
``/globex/resources/blog/<slug>.html``; testimonials ``/globex/customers/`` (``div.slide`` between a
logo wall and a stats band; "Role, Company" in one span).

Book sites (SWDE-style), 24 books each. Truth: ``{site,fields,books:[{id,url,title,author,authors,
isbn_13,publisher,publication_date,publication_date_iso,price,pages,format}]}``, values as shown
(``author`` joins several with " and ", ``price`` like ``$14.99``).

``bookshelf`` — Bookshelf Outlet: list ``/bookshelf/catalog/``, ``/bookshelf/catalog/page-N.html``;
detail ``/bookshelf/book/<slug>/<isbn>.html`` with ``h1.title``, ``div.author``, ``span.our-price``
(and a struck list price) and ``<tr><td><b>ISBN-13:</b> value</td></tr>`` rows (Publisher, Publication
Date "March 5, 2019", Pages, Format, Language); "Customers also bought" distractors.

``pagecraft`` — Pagecraft Books: hashed classes; list ``/pagecraft/shop/``, ``/pagecraft/shop/N/``
(cards); detail ``/pagecraft/p/<id>`` with the title in an ``<h2>`` (the ``<h1>`` is the logo), author
spans, price and "RRP" distractor, ``<dl>`` of ``<div><dt>ISBN-13</dt><dd>..</dd></div>`` (Publisher,
Release date "5 March 2019", Print length, Binding), related-book cards.
"""

from scrapesmith.sites.collection import SiteCollection, build_sites
from scrapesmith.sites.server import DemoServer, RequestLog, SiteServerError, serve_sites
from scrapesmith.sites.synthetic import ITEM_FIELDS, item_truth, serve_in_process
from scrapesmith.sites.views import Response, SiteSummary

__all__ = [
    "ITEM_FIELDS",
    "DemoServer",
    "RequestLog",
    "Response",
    "SiteCollection",
    "SiteServerError",
    "SiteSummary",
    "build_sites",
    "item_truth",
    "serve_in_process",
    "serve_sites",
]
