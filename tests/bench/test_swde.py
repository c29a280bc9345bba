"""Reading the original SWDE layout: sites, ground truth with counts and <NULL>, Table 18 instructions."""

from __future__ import annotations

import pytest

from scrapesmith.bench.swde import SwdeDataError, discover_sites, load_groundtruth, requests_for


@pytest.fixture
def swde(tmp_path):
    site = tmp_path / "pages" / "book" / "book-shop"
    site.mkdir(parents=True)
    for i in range(4):
        (site / f"{i:04d}.htm").write_text(f'<base href="http://shop.example/{i}"/>\n<html><body>{i}</body></html>')
    (tmp_path / "pages" / "book" / "notes.txt").write_text("not a site")
    gt = tmp_path / "gt" / "book"
    gt.mkdir(parents=True)
    (gt / "book-shop-author.txt").write_text(
        "book\tshop\tauthor\n4\t3\t4\t4\n0000\t2\tAnn\tBo\n0001\t1\t: Cy\n0002\t0\t<NULL>\n0003\t1\tDee\n")
    return tmp_path


def test_sites_are_found_in_the_vertical_site_layout(swde):
    sites = discover_sites(swde / "pages")
    assert [(s.vertical, s.site, len(s.page_paths())) for s in sites] == [("book", "shop", 4)]
    assert discover_sites(swde / "pages", ["book-shop"])[0].key == "book-shop"
    with pytest.raises(SwdeDataError, match="matching other"):
        discover_sites(swde / "pages", ["other"])


def test_ground_truth_keeps_counted_values_and_reads_null_as_none(swde):
    truth = load_groundtruth(swde / "gt" / "book" / "book-shop-author.txt")
    assert truth == {"0000": ["Ann", "Bo"], "0001": [": Cy"], "0002": [], "0003": ["Dee"]}


def test_instructions_are_the_papers_table_18_prompts(swde):
    site = discover_sites(swde / "pages")[0]
    (request,) = requests_for(site, ["isbn_13"])
    assert request.instruction == ("Here's a webpage with detailed information about a book. "
                                   "Please extract the isbn number of the book.")
    with pytest.raises(SwdeDataError, match="unknown attribute"):
        requests_for(site, ["colour"])


def test_figures_are_grouped_per_vertical_and_per_site(swde) -> None:
    from scrapesmith.bench.metrics import CaseScore
    from scrapesmith.bench.swde import SiteRun, SwdeSite, group_rows
    from scrapesmith.induce import ScraperSpec

    def run(vertical: str, site: str, cases: list[tuple[int, int, int]]) -> SiteRun:
        done = SiteRun(SwdeSite(vertical, site, swde), ScraperSpec(), induce_seconds=len(cases) * 1.25)
        done.strict = {f"a{i}": CaseScore(*case) for i, case in enumerate(cases)}
        return done

    runs = [run("book", "one", [(5, 0, 0), (0, 0, 5)]), run("book", "two", [(5, 0, 0)]), run("job", "three", [(4, 4, 0)])]
    calls = [{"site": r.site.key, "llm_calls": n, "input_tokens": 10 * n, "output_tokens": n}
             for r, n in zip(runs, [1, 0, 2], strict=True)]
    verticals = {row["group"]: row for row in group_rows(runs, calls, lambda r: r.site.vertical)}
    assert verticals["book"]["sites"] == 2 and verticals["book"]["cases"] == 3
    assert verticals["book"]["correct_ratio"] == round(2 / 3, 4) and verticals["book"]["llm_calls"] == 1
    assert verticals["job"]["correct_ratio"] == 0.0 and verticals["job"]["tokens"] == 22
    per_site = group_rows(runs, calls, lambda r: r.site.key)
    assert [row["group"] for row in per_site] == ["book-one", "book-two", "job-three"]
    assert [row["seconds"] for row in per_site] == [2.5, 1.2, 1.2] and verticals["book"]["seconds"] == 3.8
