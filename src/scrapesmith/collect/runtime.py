"""The runtime API generated ``program.py`` files are written against.

A program is a short script that composes these calls; it never needs an LLM::

    from scrapesmith.collect.runtime import Collection

    with Collection(program_id="3f2a…", allow_hosts=["127.0.0.1:8000"], delay=1.0) as run:
        for url in SOURCES:
            run.write(run.replay_list(LIST_PROGRAM, url), constants={"track": "Main"})

Every page goes through scrapesmith's polite, guarded fetcher and into ``pages.warc.gz``; every row
gets provenance columns; :meth:`Collection.close` writes ``dataset.csv``, ``dataset.jsonl`` and
``dataset.parquet``, typed by the program's declared ``SCHEMA``, in the run directory (the current
directory, which is the run directory inside the sandbox). Until then rows go to
``dataset.partial.jsonl`` as they are written, so a run that fails or is killed leaves only a file
named partial, never a dataset that looks complete. Inside the sandbox the fetcher's only way out is
the run's guard proxy (``SCRAPESMITH_SANDBOX_PROXY``). Local pages (paths and ``file://`` URLs) are read
through ``fetch``'s file route, only inside the program's ``READ_ROOTS``: the files and directories the
user named as seeds, which the sandbox bind-mounts read-only (nothing else of the disk is in there).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlencode, urljoin

from lxml import html

from scrapesmith.collect.guard import ENV_PROXY
from scrapesmith.collect.joins import join_pages
from scrapesmith.collect.tables import best_table, next_page_url, table_rows
from scrapesmith.errors import ScrapesmithError
from scrapesmith.induce import CompiledSpec, Example, ScraperSpec, induce_from_examples, parse_for_replay
from scrapesmith.io import timestamp, write_rows
from scrapesmith.lists import HttpRuntime, ListProgram, replay
from scrapesmith.web import (
    ArchivingFetcher,
    FetchError,
    FileFetcher,
    HttpFetcher,
    Page,
    RoutingFetcher,
    WarcWriter,
)

PARTIAL_DATASET = "dataset.partial.jsonl"
DATASET_FILES = ("dataset.csv", "dataset.jsonl", "dataset.parquet")
FAILURES_FILE = "failures.json"
ARCHIVE_FILE = "pages.warc.gz"
#: every file a program writes; the sandbox's parent takes over exactly these from the program's folder
OUTPUT_FILES = (*DATASET_FILES, PARTIAL_DATASET, FAILURES_FILE, ARCHIVE_FILE)


class CollectionError(ScrapesmithError):
    """A source answered with something the program cannot use (e.g. non-JSON from a REST call)."""


class Collection:
    """One collection run: a guarded fetcher with a WARC archive, and the rows written so far.

    ``read_roots``: the local files and directories the run may read pages from (none by default).
    """

    def __init__(self, program_id: str, allow_hosts: list[str] | None = None, delay: float | None = None,
                 run_dir: Path | None = None, max_pages: int = 50, schema: dict[str, str] | None = None,
                 read_roots: list[str] | None = None) -> None:
        self.program_id = program_id
        #: the column types the program declares (``SCHEMA``): every run writes the same types
        self.schema = dict(schema or {})
        self.run_dir = Path(run_dir or os.environ.get("SCRAPESMITH_RUN_DIR", "."))
        self.max_pages = max_pages
        self.rows: list[dict[str, Any]] = []
        self.failures: list[dict[str, str]] = []
        #: listing pages already read in this run (url, columns): sources whose "next" links lead into
        #: one another are read once, and each page reached again is counted here, not re-added
        self._listings_read: set[tuple[str, str]] = set()
        self.pages_read_again = 0
        self.partial = self.run_dir / PARTIAL_DATASET
        self.partial.unlink(missing_ok=True)
        self._warc = WarcWriter(self.run_dir / ARCHIVE_FILE)
        self.read_roots = list(read_roots or [])
        http = HttpFetcher(allow_hosts=allow_hosts or [], delay=delay, proxy=os.environ.get(ENV_PROXY) or None)
        files = FileFetcher(confine_to=self.read_roots)
        self.fetcher = ArchivingFetcher(RoutingFetcher(http=http, file=files), self._warc)

    def fetch(self, url: str) -> Page:
        return self.fetcher.fetch(url)

    def get_json(self, url: str, params: dict[str, str] | None = None) -> Any:
        """One REST call: GET ``url`` with query ``params``, parsed as JSON."""
        target = f"{url}?{urlencode(params)}" if params else url
        page = self.fetch(target)
        try:
            return json.loads(page.text)
        except ValueError as exc:
            raise CollectionError(f"{target} did not answer JSON ({page.content_type})") from exc

    def rest_records(self, url: str, params: dict[str, str] | None = None, records_key: str | None = None,
                     ) -> list[dict[str, Any]]:
        """The records of a REST answer: the list under ``records_key`` (or the first list found)."""
        answer = self.get_json(url, params)
        records = answer.get(records_key) if isinstance(answer, dict) and records_key else answer
        if isinstance(records, dict):
            records = next((v for v in records.values() if isinstance(v, list)), [])
        source = f"{url}?{urlencode(params)}" if params else url
        return [{**r, "source_url": source} for r in records or [] if isinstance(r, dict)]

    def read_table(self, url: str, columns: list[str], follow_pages: bool = True, links: bool = False,
                   ) -> list[dict[str, Any]]:
        """Rows of the data table on ``url`` that best fits ``columns``, following "next" links; with
        ``links``, each row's own page as ``detail_url``."""
        rows, seen = [], set()
        while url and url not in seen and len(seen) < self.max_pages:
            seen.add(url)
            if self._already_read(url, "table:" + ",".join(columns)):
                break  # an earlier source's "next" links read this page and the ones after it
            try:
                page = self.fetch(url)
            except FetchError as exc:
                if len(seen) == 1:
                    raise  # the source itself: the program fails, saying why
                self.failures.append({"url": url, "item": "next page", "error": str(exc)})
                break  # the rows so far stay; the page not read is a failure, never dropped silently
            table = best_table(page.text, columns)
            if table is not None:
                rows += [{**row, "source_url": page.url} for row in table_rows(table, page.url if links else None)]
            following = next_page_url(html.fromstring(page.text)) if follow_pages and page.text else None
            url = urljoin(page.url, following) if following else ""
        return rows

    def _already_read(self, url: str, reading: str) -> bool:
        """Whether ``url`` was read the same way before in this run (counted); else remembers it."""
        if self._read_before(url, reading):
            return True
        self._listings_read.add((url, reading))
        return False

    def _read_before(self, url: str, reading: str) -> bool:
        """Whether ``url`` was read the same way before in this run (counted and said when it was)."""
        if (url, reading) in self._listings_read:
            self.pages_read_again += 1
            print(f"already read in this run, not read again: {url}", flush=True)
            return True
        return False

    def join_pages(self, rows: list[dict[str, Any]], join: dict[str, str]) -> list[dict[str, Any]]:
        """Add to each row the fields ``join`` names (column -> label) from its own page (``detail_url``)."""
        return join_pages(rows, join, self.fetch, self.failures)

    def replay_list(self, program: dict[str, Any] | str, start_url: str | None = None) -> list[dict[str, Any]]:
        """Replay a recorded list program (``lists``), pagination and detail pages included; a program
        recorded on a listing of one page follows the "next" links of the listings it is replayed on."""
        text = program if isinstance(program, str) else json.dumps(program)
        reading = "list:" + text
        parsed = ListProgram.from_json(text)
        paginated = any(getattr(step, "pagination", None) for step in parsed.steps)
        rows: list[dict[str, Any]] = []
        url, seen = start_url or parsed.start_url, set()
        while url and url not in seen and len(seen) < self.max_pages:
            seen.add(url)
            if self._already_read(url, reading):
                break  # an earlier source's "next" links read this listing and the ones after it
            # the program's own pagination stops before a page an earlier source read, and every list
            # page it reads is remembered, so a later source reaching one of them does not read it again
            result = replay(parsed, HttpRuntime(self.fetcher), start_url=url, max_pages=self.max_pages,
                            already_read=lambda page_url: self._read_before(page_url, reading))
            self._listings_read.update((page_url, reading) for page_url in result.page_urls)
            self.failures += result.failures
            rows += result.rows
            if paginated:
                break
            # recorded on a one-page listing, replayed on a longer one: follow its "next" links here
            page = self.fetch(url)
            following = next_page_url(html.fromstring(page.text)) if page.text else None
            url = urljoin(page.url, following) if following else ""
        return rows

    def run_spec(self, spec: dict[str, Any] | str, urls: list[str]) -> list[dict[str, Any]]:
        """Apply an induced field scraper (``induce``) to each page: one row per page."""
        compiled = CompiledSpec(ScraperSpec.from_json(spec if isinstance(spec, str) else json.dumps(spec)))
        rows = []
        for url in urls:
            try:
                page = self.fetch(url)
            except FetchError as exc:
                self.failures.append({"url": url, "item": "", "error": str(exc)})
                continue
            rows.append({**compiled.row(page.text), "source_url": page.url})
        return rows

    def learn_fields(self, examples: dict[str, str], url: str, more_urls: list[str] | None = None) -> dict[str, Any]:
        """A field scraper learnt from values seen on ``url`` (``induce --example``), checked on ``more_urls``;
        returned as spec data for :meth:`run_spec`, so a program can pin fields by example. No model."""
        trees = [parse_for_replay(self.fetch(u).text) for u in [url, *(more_urls or [])]]
        spec = induce_from_examples([Example(name, value) for name, value in examples.items()], trees,
                                    seed_names=[url, *(more_urls or [])])
        return spec.model_dump(mode="json")

    def write(self, rows: list[dict[str, Any]], field_map: dict[str, str] | None = None,
              constants: dict[str, Any] | None = None, keep: list[str] | None = None) -> int:
        """Add rows: rename by ``field_map`` (output <- extracted; a kept column it leaves out stays empty),
        add ``constants``, stamp provenance (``source_url``; ``detail_url`` when the values came from the
        item's own page)."""
        now = timestamp()
        added = len(self.rows)
        for row in rows:
            out = {}
            for column in keep or list(row):
                # a kept column the field map leaves out is unmapped: empty, never read from another field
                unmapped = field_map and column not in field_map and column not in (constants or {})
                out[column] = None if unmapped else row.get((field_map or {}).get(column, column))
            out.update(constants or {})
            out["source_url"] = row.get("source_url")
            if row.get("detail_url"):
                out["detail_url"] = row["detail_url"]
            out["fetched_at"] = row.get("fetched_at") or now
            out["program_id"] = self.program_id
            self.rows.append(out)
        with self.partial.open("a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, default=str) + "\n" for row in self.rows[added:])
        print(f"rows: {len(self.rows)}", flush=True)
        return len(rows)

    def close(self, complete: bool = True) -> None:
        """Finish the run: the dataset files when ``complete``; otherwise only the partial file stays."""
        self.fetcher.close()
        self._warc.close()
        if complete:
            for name in DATASET_FILES:
                write_rows(self.rows, self.run_dir / name, self.schema)
            self.partial.unlink(missing_ok=True)
        if self.failures:
            (self.run_dir / FAILURES_FILE).write_text(json.dumps(self.failures, indent=1))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(complete=kind is None)
