"""The demo web is a pure function of its seed."""

from __future__ import annotations

from scrapesmith.sites import build_sites


def test_same_seed_gives_identical_bytes() -> None:
    first, second = build_sites(7), build_sites(7)
    assert list(first.pages) == list(second.pages)
    assert all(first.pages[path] == second.pages[path] for path in first.pages)
    assert all(first.truth(name) == second.truth(name) for name in first.site_names)


def test_another_seed_gives_other_data() -> None:
    seven, eight = build_sites(7), build_sites(8)
    assert seven.truth("proceedings")["papers"] != eight.truth("proceedings")["papers"]
    assert seven.truth("stocks")["prices"] != eight.truth("stocks")["prices"]
    assert seven.pages["/acme/customers/"] != eight.pages["/acme/customers/"]


def test_every_site_is_listed_and_described() -> None:
    sites = build_sites()
    assert sites.site_names == [
        "proceedings",
        "stocks",
        "sports",
        "acme",
        "northwind",
        "globex",
        "bookshelf",
        "pagecraft",
    ]
    summaries = {s.name: s for s in sites.describe()}
    assert summaries["proceedings"].records["papers"] == len(sites.truth("proceedings")["papers"])
    assert all(s.page_count == len(sites.urls(s.name)) for s in summaries.values())


def test_urls_filter_by_site_and_kind() -> None:
    sites = build_sites()
    papers = sites.urls("proceedings", "detail")
    assert sorted(papers) == sorted(p["url"] for p in sites.truth("proceedings")["papers"])
    assert set(sites.urls(kind="testimonials")) == {
        "/acme/customers/",
        "/northwind/customers/",
        "/globex/customers/",
    }
    assert all("api" in sites.kinds(path) for path in sites.urls(kind="api"))


def test_markup_differs_between_sites() -> None:
    sites = build_sites()
    acme = sites.pages[sites.truth("acme")["jobs"][0]["url"]].body.decode()
    northwind = sites.pages[sites.truth("northwind")["jobs"][0]["url"]].body.decode()
    assert 'class="job-title"' in acme
    assert 'class="c-' in northwind and "job-title" not in northwind


def test_truth_is_a_copy() -> None:
    sites = build_sites()
    sites.truth("acme")["jobs"].clear()
    assert sites.truth("acme")["jobs"]
