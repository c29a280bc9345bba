"""Heal a collection program (``program.py`` from ``collect``, no model) after its site was redrawn: its list
program is recorded again as ``program.v2.py`` beside it, checked against the collection's own dataset; the
old program is untouched and still runs on the site as it was. Real demo web over HTTP, real sandbox; the rows
are checked against the demo web's own truth."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.collect import collect
from scrapesmith.collect.heal import CollectionHealError, heal_collection_program
from scrapesmith.collect.program import rerun_program
from scrapesmith.collect.sandbox import SandboxLimits
from scrapesmith.lists.service import make_runtimes
from scrapesmith.sites import build_sites, serve_sites


def _titles(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [row["title"] for row in csv.DictReader(handle)]


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """A list collection made on the original layout, and the port it was served on."""
    run_dir = tmp_path_factory.mktemp("heal") / "shop"
    with serve_sites(port=0) as web:
        result = collect(f"Books at {web.url('/pagecraft/shop/')} with columns title and price", llm=None,
                         run_dir=run_dir, allow_hosts=["127.0.0.1"], delay=0)
    assert result.valid and "LIST_PROGRAM" in (run_dir / "program.py").read_text()
    return run_dir, web.port


def test_run_heal_records_the_list_again_as_a_new_version(shop):
    run_dir, port = shop
    before = (run_dir / "program.py").read_text()
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    with serve_sites(port=port, layout=1):  # every class renamed
        done = subprocess.run([sys.executable, "-m", "scrapesmith", "run", str(run_dir / "program.py"),
                               "--allow-host", "127.0.0.1", "--heal"], env=env, capture_output=True, text=True,
                              timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    assert "no rows read, was 24 when forged" in done.stderr and "24 of 24 rows" in done.stderr
    assert (run_dir / "program.py").read_text() == before
    healed = max((run_dir / "reruns").glob("*/dataset.csv"))
    assert sorted(_titles(healed)) == sorted(book["title"] for book in build_sites(7).truth("pagecraft")["books"])
    with serve_sites(port=port):  # the old version still runs on the site as it was
        old = rerun_program(run_dir / "program.py", ["127.0.0.1"], None, SandboxLimits())
    assert old.rows == 24


def test_an_unchanged_site_needs_no_heal(shop):
    run_dir, port = shop
    with serve_sites(port=port), make_runtimes("http", ["127.0.0.1"], 0) as runtimes:
        result = heal_collection_program(run_dir / "program.py", runtimes)
    assert not result.heal.needed and not result.healed


def test_a_table_program_says_it_has_no_selectors_to_mend(tmp_path):
    program = tmp_path / "program.py"
    program.write_text("SOURCES = []\nFIELD_MAP = {'team': 'team'}\n")
    with pytest.raises(CollectionHealError, match="not a list program"), make_runtimes("http", [], 0) as runtimes:
        heal_collection_program(program, runtimes)
