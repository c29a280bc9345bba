"""collect keeps what induce knows of each field: the same fields, their confidence and doubt in
``result.json``; and a publication date printed as a bare year (typed an integer in the dataset) keeps its
column. Real pages: SWDE book-borders detail pages served on 127.0.0.1, their date line cut to its year as
some book sites print it."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from scrapesmith.bench.collect_pages import Catalog, serve_catalog
from scrapesmith.collect.mapping import plausible
from scrapesmith.collect.service import collect
from scrapesmith.induce import induce_scraper, parse_for_replay
from scrapesmith.lists.detail import DETAIL_SEEDS, field_request

COLUMNS = ["title", "publisher", "publication_date"]
_DATE_LINE = re.compile(r'(<div class="publisher">.*?<br>\s*)[A-Z][a-z]+ \d{1,2}, (\d{4})', re.DOTALL)


def test_a_year_alone_is_a_date_a_column_can_hold():
    assert plausible("publication_date", [2010, "2009", "1999"])
    assert not plausible("publication_date", ["Paperback", "352"])


def test_collect_keeps_a_year_column_and_induces_confidence_per_field(swde_dir, tmp_path) -> None:
    originals = sorted((swde_dir / "book" / "book-borders").glob("*.htm"))
    (tmp_path / "pages").mkdir()
    years, pages = {}, []
    for path in originals:
        text = path.read_text(encoding="utf-8", errors="replace")
        match = _DATE_LINE.search(text)
        years[path.stem] = match.group(2)
        pages.append(tmp_path / "pages" / path.name)
        pages[-1].write_text(_DATE_LINE.sub(r"\1\2", text, count=1), encoding="utf-8")
    with serve_catalog(Catalog(pages)) as base:
        collect(f"Collect every book listed in the catalog at {base}/catalog/ with columns " + ", ".join(COLUMNS),
                llm=None, run_dir=tmp_path / "run", allow_hosts=[urlsplit(base).netloc], delay=0)
        urls = [f"{base}/books/{p.stem}.html" for p in pages[:DETAIL_SEEDS]]
    rows = [json.loads(line) for line in (tmp_path / "run" / "dataset.jsonl").read_text().splitlines()]
    got = {urlsplit(r["detail_url"]).path.rsplit("/", 1)[-1].removesuffix(".html"): r for r in rows}
    assert {page: str(row["publication_date"]) for page, row in got.items()} == years

    record = json.loads((tmp_path / "run" / "result.json").read_text())
    fields = {f["field"]: f for f in record["fields"]}
    trees = [parse_for_replay(p.read_text(encoding="utf-8")) for p in pages[:DETAIL_SEEDS]]
    spec = induce_scraper([field_request(c) for c in COLUMNS], trees, method="heuristic", seed_names=urls)
    assert set(fields) == {f.name for f in spec.fields if f.actions}
    for induced in spec.fields:
        if induced.actions:
            kept = fields[induced.name]
            assert (kept["confidence"], kept["doubt"]) == (induced.confidence, induced.doubt)
            assert kept["selector"] == " ; ".join(induced.actions)
            assert kept["confidence"] is not None

    # a doubted field is never shown as if it were known: its line is in the report beside the dataset
    from scrapesmith.report.service import write_report

    record["fields"][0].update(doubt="same text on every seed page", confidence=0.31)
    (tmp_path / "run" / "result.json").write_text(json.dumps(record))
    column = record["fields"][0]["column"]
    report = write_report(tmp_path / "run").read_text()
    assert f"unsure: {column}: same text on every seed page (confidence 0.31)" in report
