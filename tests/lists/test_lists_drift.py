"""A list program records its output profile on its first run; a replay on the site as it was raises no
alarm, one after a redesign that breaks the list says which check failed; a program without one still runs;
heal records the list again as a new version that reads the same rows."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scrapesmith.dom.mutate import mutate_page
from scrapesmith.lists.heal import ListHealError, heal_list_program
from scrapesmith.lists.profile import check_replay
from scrapesmith.lists.service import extract_list, replay_program
from scrapesmith.lists.views import ListProgram


def shop_truth(count: int) -> list[tuple[str, str]]:
    """What :func:`shop` shows: each product's name and price, in order (the generator's truth)."""
    return [(f"Lamp model {i}", f"${i}.99") for i in range(1, count + 1)]


def shop(count: int) -> str:
    items = "".join(f"<li class='product'><h3 class='name'><a href='/p/{i}'>Lamp model {i}</a></h3>"
                    f"<span class='price'>${i}.99</span></li>" for i in range(1, count + 1))
    return f"<html><body><nav><a href='/'>Home</a></nav><ul class='products'>{items}</ul></body></html>"


def test_profile_records_columns_and_items_per_page(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(24)
    recording, result = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    profile = recording.program.profile
    assert profile is not None and profile.items_per_page == [len(result.rows)] == [24]
    assert profile.column("Price").main_kind == "money"


def test_unchanged_replay_raises_no_alarm(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(24)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    mutable_site.pages["/list"] = shop(23)  # one product sold out: the same site
    report = check_replay(recording.program, replay_program(site_runtimes, recording.program))
    assert report.checked and not report.drifted


def test_redesigned_list_is_drift(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(24)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    mutable_site.pages["/list"] = mutate_page(shop(24), "classes", 0)
    report = check_replay(recording.program, replay_program(site_runtimes, recording.program))
    assert [d.evidence for d in report.drifts] == ["items per page 0, was 24±0"]


def test_program_saved_before_profiles_still_replays(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(5)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    data = recording.program.model_dump(mode="json")
    del data["profile"]
    old = ListProgram.model_validate(data)
    result = replay_program(site_runtimes, old)
    assert len(result.rows) == 5 and not check_replay(old, result).checked


def test_heal_records_a_changed_list_again_as_a_new_version(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(24)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    for mutation in ("classes", "wrappers", "combined"):
        mutable_site.pages["/list"] = mutate_page(shop(24), mutation, 5)
        healed = heal_list_program(recording.program, site_runtimes)
        assert healed.healed, (mutation, healed.validation.drifts)
        assert healed.rows_found_again == healed.rows_kept == 24
        assert healed.needed == (healed.program.program_id != recording.program.program_id)
        if mutation == "classes":
            assert healed.needed
        rows = replay_program(site_runtimes, healed.program).rows
        assert [(r["Name"], r["Price"]) for r in rows] == shop_truth(24), mutation


def test_heal_refuses_a_program_without_profile(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = shop(5)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    with pytest.raises(ListHealError, match="no output profile"):
        heal_list_program(recording.program.model_copy(update={"profile": None}), site_runtimes)


def test_heal_command_writes_the_list_program_beside_the_old(mutable_site, site_runtimes, tmp_path) -> None:
    mutable_site.pages["/list"] = shop(12)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    recording.program.save(tmp_path / "shop.json")
    before = (tmp_path / "shop.json").read_text()
    mutable_site.pages["/list"] = mutate_page(shop(12), "classes", 1)
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "heal", "shop.json", "--allow-host",
                           f"{mutable_site.host}:{mutable_site.port}", "--delay", "0"], cwd=tmp_path,
                          env={**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "12 of the 12 rows" in done.stderr and (tmp_path / "shop.json").read_text() == before
    healed = ListProgram.load(tmp_path / "shop.v2.json")
    assert len(replay_program(site_runtimes, healed).rows) == 12


def test_replay_heal_records_again_and_replays_the_new_version(mutable_site, site_runtimes, tmp_path) -> None:
    mutable_site.pages["/list"] = shop(12)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    recording.program.save(tmp_path / "shop.json")
    mutable_site.pages["/list"] = mutate_page(shop(12), "combined", 2)
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "replay", "shop.json", "-o", "out.jsonl", "--heal",
                           "--allow-host", f"{mutable_site.host}:{mutable_site.port}", "--delay", "0"], cwd=tmp_path,
                          env={**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "items per page 0, was 12±0" in done.stderr and "shop.v2.json" in done.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["Name"], r["Price"]) for r in rows] == shop_truth(12)


def listing(count: int) -> str:
    items = "".join(f"<li class='entry'><span class='rank'>{i}.</span><span class='title'>Lamp model {i}</span>"
                    f"<a href='/p/{i}'>details</a><span class='price'>${i}.99</span></li>"
                    for i in range(1, count + 1))
    return f"<html><body><ul class='entries'>{items}</ul></body></html>"


def test_heal_points_each_column_at_the_values_it_read(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = listing(10)
    recording, before = extract_list(site_runtimes, mutable_site.url("/list"), "lamps", ["Title", "Price"])
    assert before.rows[0]["Title"] == "Lamp model 1"
    mutable_site.pages["/list"] = mutate_page(listing(10), "classes", 3)
    healed = heal_list_program(recording.program, site_runtimes)
    assert healed.needed and healed.healed and healed.rows_found_again == 10
    rows = replay_program(site_runtimes, healed.program).rows
    assert [r["Title"] for r in rows] == [f"Lamp model {i}" for i in range(1, 11)]


def test_replay_start_urls_heal_records_again_on_the_first_and_replays_every_start_page(
        mutable_site, site_runtimes, tmp_path) -> None:
    mutable_site.pages["/list"] = shop(12)
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "products", ["Name", "Price"])
    recording.program.save(tmp_path / "shop.json")
    mutable_site.pages["/list"] = mutate_page(shop(12), "classes", 1)
    mutable_site.pages["/list2"] = mutate_page(shop(7), "classes", 1)
    (tmp_path / "starts.txt").write_text(f"{mutable_site.url('/list')}\n{mutable_site.url('/list2')}\n")
    done = subprocess.run([sys.executable, "-m", "scrapesmith", "replay", "shop.json", "-o", "out.jsonl",
                           "--start-urls", "starts.txt", "--heal", "--allow-host",
                           f"{mutable_site.host}:{mutable_site.port}", "--delay", "0"], cwd=tmp_path,
                          env={**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "shop.v2.json" in done.stderr and "from every start page" in done.stderr
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 12 + 7
