"""``replay --start-urls``: a list program from every start page of a list, as a resumable run."""

from __future__ import annotations

from scrapesmith.io import read_rows
from scrapesmith.sites.synthetic import category_items, item_truth

from .conftest import item_number, scrapesmith


def test_a_list_program_replays_from_every_start_page_on_two_workers(tmp_path, shop):
    start = shop.url(0).replace("/item/0", "/category/0")
    recorded = scrapesmith("lists", start, "--goal", "all products", "--columns", "Name,Price,Link", "--llm", "none",
                           "-o", "first.csv", "--program", "program.json", "--allow-host", "127.0.0.1", cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    categories = range(12)
    (tmp_path / "starts.txt").write_text("".join(f"{start[:-1]}{c}\n" for c in categories), encoding="utf-8")
    shop.site.log.clear()

    replayed = scrapesmith("replay", "program.json", "--start-urls", "starts.txt", "-o", "all.parquet",
                           "--allow-host", "127.0.0.1", "--workers", "2", "--batch-size", "5", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    rows = read_rows(tmp_path / "all.parquet")
    expected = [n for c in categories for n in category_items(c, shop.site.pages)]
    assert [item_number(row["Link"]) for row in rows] == expected
    assert all(row["Name"] == item_truth(item_number(row["Link"]))["name"] for row in rows)
    # Each start page fetched once: the run's fetch is the page the replay starts from.
    assert sorted(target for _when, target in shop.site.log) == sorted(
        ["/robots.txt", *(f"/category/{c}" for c in categories)])
    assert (tmp_path / "all.run" / "manifest.sqlite").exists()
