"""--since: a later run fetches only new pages, asks about the old ones (ETag) or keeps them, and appends."""

from __future__ import annotations

from scrapesmith.io import read_rows

from .conftest import assert_every_item_once, item_number, scrapesmith, write_inputs

RUN = ("spec.json", "urls.txt", "-o", "items.jsonl", "--allow-host", "127.0.0.1", "--batch-size", "7")


def _item_paths(shop) -> list[str]:
    return [target for _when, target in shop.site.log if target.startswith("/item/")]


def test_an_incremental_run_fetches_only_new_urls_when_the_site_gives_no_validators(tmp_path, shop):
    shop.site.validators = False
    write_inputs(tmp_path, shop, range(40))
    first = scrapesmith("run", *RUN, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    shop.site.log.clear()

    write_inputs(tmp_path, shop, range(60))
    daily = scrapesmith("run", *RUN, "--since", "items.run", cwd=tmp_path)
    assert daily.returncode == 0, daily.stderr
    assert sorted(item_number(path) for path in _item_paths(shop)) == list(range(40, 60))
    assert "40 kept without fetching" in daily.stderr
    assert_every_item_once(tmp_path / "items.jsonl", range(60))


def test_an_incremental_run_asks_with_the_etag_and_replaces_only_changed_pages(tmp_path, shop):
    write_inputs(tmp_path, shop, range(30))
    assert scrapesmith("run", *RUN, cwd=tmp_path).returncode == 0
    shop.site.log.clear()
    shop.site.change(3)
    shop.site.change(17)

    write_inputs(tmp_path, shop, range(35))
    daily = scrapesmith("run", *RUN, "--since", "items.jsonl", cwd=tmp_path)
    assert daily.returncode == 0, daily.stderr
    assert sorted(item_number(path) for path in _item_paths(shop)) == list(range(35))
    assert shop.site.not_modified == 28  # 30 old pages asked, 2 changed: only the 5 new and 2 changed have bodies
    assert "28 unchanged (304)" in daily.stderr
    assert_every_item_once(tmp_path / "items.jsonl", range(35), versions={3: 1, 17: 1})
    # Appended: the changed pages' new rows come last, after every row kept from the first run.
    assert [item_number(row["source_url"]) for row in read_rows(tmp_path / "items.jsonl")][-7:] == [
        3, 17, 30, 31, 32, 33, 34]


def test_an_incremental_run_into_a_new_directory_leaves_the_old_run_as_it_was(tmp_path, shop):
    shop.site.validators = False
    write_inputs(tmp_path, shop, range(10))
    assert scrapesmith("run", *RUN, cwd=tmp_path).returncode == 0
    write_inputs(tmp_path, shop, range(15))
    later = scrapesmith("run", "spec.json", "urls.txt", "-o", "later.csv", "--allow-host", "127.0.0.1",
                        "--since", "items.run", cwd=tmp_path)
    assert later.returncode == 0, later.stderr
    assert_every_item_once(tmp_path / "later.csv", range(15))
    assert_every_item_once(tmp_path / "items.jsonl", range(10))
