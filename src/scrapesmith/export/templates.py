"""The text of an exported project: Scrapy's files and the plain script, filled by :mod:`.service`.

``$names`` are filled with :class:`string.Template`; every value put into code is a Python literal
(``repr``), never text spliced into an expression.
"""

from __future__ import annotations

SCRAPY_CFG = """\
[settings]
default = $package.settings
"""

SETTINGS = '''\
"""Scrapy settings of this exported program: the politeness scrapesmith ran it with."""

BOT_NAME = $package_literal
SPIDER_MODULES = [$spiders_literal]
NEWSPIDER_MODULE = $spiders_literal
USER_AGENT = $user_agent
ROBOTSTXT_OBEY = $robots
DOWNLOAD_DELAY = $delay
RANDOMIZE_DOWNLOAD_DELAY = False
CONCURRENT_REQUESTS_PER_DOMAIN = 1
AUTOTHROTTLE_ENABLED = False
FEED_EXPORT_ENCODING = "utf-8"
'''

SPEC_SPIDER = '''\
"""A Scrapy spider for scrapesmith scraper spec $program_id, exported by `scrapesmith export`.

Run it on pages (a comma-separated list, or a file of URLs one a line; the spec's seed pages otherwise):

    scrapy crawl $name -a urls=https://example.org/p/1,https://example.org/p/2 -O rows.jsonl
    scrapy crawl $name -a urls_file=urls.txt -O rows.csv

Each page gives one row: the spec's fields, then source_url, fetched_at, program_id and error.
"""

import json
from datetime import datetime, timezone
from pathlib import Path

import scrapy

from $package.extract import parse_for_fields, spec_row

SPEC = json.loads((Path(__file__).resolve().parents[1] / "program.json").read_text(encoding="utf-8"))
PROGRAM_ID = $program_id_literal


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ForgedSpecSpider(scrapy.Spider):
    name = $name_literal

    def __init__(self, urls="", urls_file="", **kwargs):
        super().__init__(**kwargs)
        listed = [url.strip() for url in urls.split(",") if url.strip()]
        if urls_file:
            lines = Path(urls_file).read_text(encoding="utf-8").splitlines()
            listed += [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        self.pages = listed or list(SPEC.get("seeds") or [])

    async def start(self):
        for request in self.start_requests():
            yield request

    def start_requests(self):
        for url in self.pages:
            yield scrapy.Request(url, callback=self.parse, errback=self.failed, dont_filter=True)

    def parse(self, response):
        row = spec_row(SPEC, parse_for_fields(response.text))
        yield {**row, "source_url": response.url, "fetched_at": now(), "program_id": PROGRAM_ID, "error": None}

    def failed(self, failure):
        fields = {field["name"]: None for field in SPEC["fields"]}
        yield {**fields, "source_url": failure.request.url, "fetched_at": now(), "program_id": PROGRAM_ID,
               "error": str(failure.value)}
'''

LIST_SPIDER = '''\
"""A Scrapy spider for scrapesmith list program $program_id, exported by `scrapesmith export`.

    scrapy crawl $name -O rows.jsonl                                  # from the recorded start page
    scrapy crawl $name -a start_url=https://example.org/jobs/ -a max_pages=5 -O rows.csv

It replays the program: setup steps (filters) on the start page, the list's items page after page until a
page brings nothing new or the pagination control ends, each item's own page for the detail columns, and
writes one row per item in the program's column order, then source_url, detail_url, fetched_at, program_id.
"""

import json
from datetime import datetime, timezone
from pathlib import Path

import scrapy

from $package.extract import (
    ListSteps,
    extract,
    identities,
    link_of,
    next_page,
    parse_for_lists,
    select_in,
)

PROGRAM = json.loads((Path(__file__).resolve().parents[1] / "program.json").read_text(encoding="utf-8"))
PROGRAM_ID = $program_id_literal
STEPS = ListSteps(PROGRAM)


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ListRun:
    """What one run from one start page carries from page to page."""

    def __init__(self):
        self.values, self.typed = {}, {}
        self.seen, self.visited = set(), set()
        self.rows, self.pages = [], 0


class ForgedListSpider(scrapy.Spider):
    name = $name_literal

    def __init__(self, start_url="", max_pages="", **kwargs):
        super().__init__(**kwargs)
        self.first_url = start_url or PROGRAM["start_url"]
        self.max_pages = int(max_pages or PROGRAM.get("max_pages") or 20)

    async def start(self):
        for request in self.start_requests():
            yield request

    def start_requests(self):
        yield scrapy.Request(self.first_url, callback=self.setup, cb_kwargs={"run": ListRun(), "index": 0},
                             dont_filter=True)

    def setup(self, response, run, index):
        root = parse_for_lists(response.text)
        while index < len(STEPS.setup):
            target = STEPS.setup_step(root, index, response.url, run.values, run.typed)
            index += 1
            if target is not None:
                run.typed = {}
                yield scrapy.Request(target, callback=self.setup, cb_kwargs={"run": run, "index": index},
                                     dont_filter=True)
                return
        if STEPS.enter is not None:
            yield from self.list_page(response, run, root)

    def list_page(self, response, run, root=None):
        root = parse_for_lists(response.text) if root is None else root
        run.visited.add(response.url)
        run.pages += 1
        new = 0
        items = select_in(root, STEPS.item_selector)
        for item, key in zip(items, identities(items, response.url)):
            if key in run.seen:
                continue
            run.seen.add(key)
            row = extract(item, STEPS.item, response.url)
            if STEPS.detail_link is not None:
                row["_detail"] = link_of(item, STEPS.detail_link["element"], response.url)
            row["source_url"] = response.url
            run.rows.append(row)
            new += 1
        target = next_page(root, STEPS.pagination, response.url, run.visited) if new else None
        if target is not None and run.pages < self.max_pages:
            yield scrapy.Request(target, callback=self.list_page, cb_kwargs={"run": run}, dont_filter=True)
            return
        run.values.update(extract(root, STEPS.after, response.url))
        for row in run.rows:
            detail = row.pop("_detail", "")
            if detail:
                yield scrapy.Request(detail, callback=self.detail_page, errback=self.detail_failed,
                                     cb_kwargs={"run": run, "row": row}, dont_filter=True)
            else:
                yield STEPS.finish(row, run.values, row.pop("source_url"), None, now(), PROGRAM_ID)

    def detail_page(self, response, run, row):
        row.update(extract(parse_for_lists(response.text), STEPS.detail, response.url))
        yield STEPS.finish(row, run.values, row.pop("source_url"), response.url, now(), PROGRAM_ID)

    def detail_failed(self, failure):
        run, row = failure.request.cb_kwargs["run"], failure.request.cb_kwargs["row"]
        yield STEPS.finish(row, run.values, row.pop("source_url"), failure.request.url, now(), PROGRAM_ID)
'''

PROJECT_README = """\
# $name: a scrapesmith program as a Scrapy project

Exported by `scrapesmith export` from $kind `$program_id`; it needs Scrapy (and its lxml and parsel), not
scrapesmith. `$package/program.json` is the program, `$package/extract.py` how it reads a page,
`$package/spiders/$name.py` the spider, `$package/settings.py` the politeness it ran with (robots.txt
$robots_word, $delay s between requests to a host, one request at a time per host).

```bash
cd $directory
$usage
```

scrapesmith also refuses private addresses unless told (`--allow-host`); Scrapy does not, so point it only at
sites you mean to crawl.
"""

SCRIPT_MAIN = '''

# -- the program and how to run it ------------------------------------------------------------------------

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402
import urllib.robotparser  # noqa: E402
from datetime import datetime, timezone  # noqa: E402
from pathlib import Path  # noqa: E402

PROGRAM = json.loads($program_json)
PROGRAM_ID = $program_id_literal
KIND = $kind_literal
USER_AGENT = $user_agent
DELAY = $delay
ROBOTS = $robots
_last: dict[str, float] = {}
_robots: dict[str, urllib.robotparser.RobotFileParser] = {}
_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([\\w-]+)""", re.IGNORECASE)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _decode(body: bytes, declared: str | None) -> str:
    found = _CHARSET.search(body[:4096])
    for encoding in (declared, found.group(1).decode("ascii") if found else None, "utf-8"):
        if encoding:
            try:
                return body.decode(encoding)
            except (LookupError, UnicodeDecodeError):
                continue
    return body.decode("utf-8", "replace")


def _allowed(url: str) -> bool:
    parts = urlsplit(url)
    home = f"{parts.scheme}://{parts.netloc}"
    if home not in _robots:
        robots = urllib.robotparser.RobotFileParser(home + "/robots.txt")
        try:
            robots.read()
        except OSError:
            robots.allow_all = True
        _robots[home] = robots
    return _robots[home].can_fetch(USER_AGENT, url)


def fetch(url: str) -> tuple[str, str]:
    """``(final URL, text)`` of a page: a URL politely (robots.txt, a delay per host), or a local file."""
    if "://" not in url or url.startswith("file://"):
        path = Path(url[len("file://"):] if url.startswith("file://") else url)
        return path.absolute().as_uri(), _decode(path.read_bytes(), None)
    if ROBOTS and not _allowed(url):
        raise PermissionError(f"robots.txt disallows {url}")
    host = urlsplit(url).netloc
    wait = _last.get(host, 0.0) + DELAY - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.url, _decode(response.read(), response.headers.get_content_charset())
    finally:
        _last[host] = time.monotonic()


def main(argv: list[str]) -> int:
    """``python SCRIPT [PAGES_OR_START_URL...] [-o rows.jsonl]``: JSON lines to stdout or the file."""
    output = None
    if "-o" in argv:
        at = argv.index("-o")
        output, argv = argv[at + 1], argv[:at] + argv[at + 2:]
    if KIND == "spec":
        pages = []
        for arg in argv or PROGRAM.get("seeds") or []:
            if arg.endswith(".txt") and Path(arg).is_file():
                pages += [line.strip() for line in Path(arg).read_text(encoding="utf-8").splitlines() if line.strip()]
            else:
                pages.append(arg)
        rows = run_spec(PROGRAM, PROGRAM_ID, fetch, pages, now)
    else:
        rows = []
        for start in argv or [PROGRAM["start_url"]]:
            rows += run_list(PROGRAM, PROGRAM_ID, fetch, start, int(PROGRAM.get("max_pages") or 20), now)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\\n" for row in rows)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''
