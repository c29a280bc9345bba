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
