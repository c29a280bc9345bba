"""``heal`` reads the pages that changed (issue 44): a drifted run's own pages (the ones it kept in its run
directory), pages named on the command line, or it says it has no changed pages; a selector that did not
change is never called healed.

Real SWDE pages: a spec forged on three saved book-amazon pages that stay as they were, and later pages of the
same site changed by a real transformation (``labels``: every field label reworded, as a redesign does). The
truth is SWDE's own ground truth, not the spec's output.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith.bench.swde import load_groundtruth, read_page
from scrapesmith.dom.mutate import MUTATIONS, mutate_page
from scrapesmith.induce.execute import CompiledSpec, parse_for_replay
from scrapesmith.induce.heal import heal_spec
from scrapesmith.induce.profile import with_profile
from scrapesmith.induce.service import induce_scraper
from scrapesmith.induce.views import FieldRequest
from scrapesmith.io import read_rows

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
SITE = SWDE / "book" / "book-amazon"
pytestmark = pytest.mark.skipif(not SITE.is_dir(), reason="SWDE pages not present")
FIELDS = [FieldRequest("title", "the title of the book"), FieldRequest("isbn_13", "the isbn number of the book"),
          FieldRequest("publisher", "the publisher of the book")]
PAGES = 10


@pytest.fixture(scope="module")
def forged():
    paths = sorted(SITE.glob("*.htm"))[:PAGES]
    texts = [read_page(p) for p in paths]
    seeds = [parse_for_replay(t) for t in texts[:3]]
    return with_profile(induce_scraper(FIELDS, seeds, method="heuristic"), seeds), paths, texts


@pytest.fixture
def saved(forged, tmp_path: Path) -> Path:
    """The user's folder: seeds/ as saved when forging, changed/ the later pages after a redesign, spec.json."""
    spec, paths, texts = forged
    (tmp_path / "seeds").mkdir()
    (tmp_path / "changed").mkdir()
    for path, text in zip(paths[:3], texts[:3], strict=True):
        (tmp_path / "seeds" / path.name).write_text(text, encoding="utf-8")
    for path, text in zip(paths[3:], texts[3:], strict=True):
        (tmp_path / "changed" / path.name).write_text(mutate_page(text, "labels", seed=3), encoding="utf-8")
    spec.model_copy(update={"seeds": [f"seeds/{p.name}" for p in paths[:3]]}).save(tmp_path / "spec.json")
    return tmp_path


def scrapesmith(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def truth(field: str) -> dict[str, list[str]]:
    return load_groundtruth(SWDE / "groundtruth" / "book" / f"book-amazon-{field}.txt")


def assert_rows_match_truth(table: Path) -> None:
    """isbn_13 (whose label the redesign reworded) and title (which it did not touch) read SWDE's values."""
    rows = read_rows(table)
    assert len(rows) == PAGES - 3
    isbn, title = truth("isbn_13"), truth("title")
    for row in rows:
        page = Path(row["source_url"]).stem
        assert row["isbn_13"] in isbn[page], (page, row)
        assert row["title"] in title[page], (page, row)


def test_heal_on_the_drifted_runs_directory_heals_from_the_pages_it_kept(saved):
    drifted = scrapesmith(saved, "run", "spec.json", "changed", "-o", "out.csv")
    assert drifted.returncode == 3, drifted.stderr
    assert "mend with `scrapesmith heal spec.json out.run`" in drifted.stderr
    healed = scrapesmith(saved, "heal", "spec.json", "out.run")
    assert healed.returncode == 0, healed.stderr
    assert "healed isbn_13" in healed.stderr and "on the 7 pages the run kept" in healed.stderr
    assert "title:" not in healed.stderr  # untouched by the redesign: not in the diff, not "healed"
    again = scrapesmith(saved, "run", "spec.v2.json", "changed", "-o", "new.csv")
    assert again.returncode == 0, again.stderr
    assert_rows_match_truth(saved / "new.csv")
    by_dataset = scrapesmith(saved, "heal", "spec.json", "out.csv")  # the drifted run's dataset names its run
    assert by_dataset.returncode == 0 and "on the 7 pages the run kept" in by_dataset.stderr, by_dataset.stderr


def test_run_heal_heals_on_the_runs_pages_not_on_unchanged_seeds(saved):
    done = scrapesmith(saved, "run", "spec.json", "changed", "-o", "out.csv", "--heal")
    assert done.returncode == 0, done.stderr
    assert "on the 7 pages the run kept" in done.stderr and "running spec.v2.json" in done.stderr
    assert done.stderr.rstrip().splitlines()[-2].startswith("no drift")
    assert_rows_match_truth(saved / "out.csv")


def test_heal_on_pages_named_on_the_command_line(saved):
    named = sorted(str(p.relative_to(saved)) for p in (saved / "changed").iterdir())
    healed = scrapesmith(saved, "heal", "spec.json", *named)
    assert healed.returncode == 0, healed.stderr
    assert "healed isbn_13" in healed.stderr and f"on the {len(named)} pages given" in healed.stderr
    assert scrapesmith(saved, "run", "spec.v2.json", "changed", "-o", "new.csv").returncode == 0
    assert_rows_match_truth(saved / "new.csv")


def test_heal_with_no_pages_on_unchanged_saved_seeds_says_it_has_no_changed_pages(saved):
    before = (saved / "spec.json").read_text()
    done = scrapesmith(saved, "heal", "spec.json")
    assert done.returncode == 3, done.stderr
    assert "no changed pages" in done.stderr and "scrapesmith heal spec.json OUTPUT.run" in done.stderr
    assert "healed" not in done.stderr.replace("not healed", "")
    assert not (saved / "spec.v2.json").exists() and (saved / "spec.json").read_text() == before


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_selector_found_again_where_it_was_is_never_called_healed(forged, mutation):
    spec, _paths, texts = forged
    changed = [parse_for_replay(mutate_page(t, mutation, seed=1)) for t in texts]
    for pages, seed_pages in ((changed[:3], None), (changed[3:], 0), (changed, 3)):
        result = heal_spec(spec, pages, seed_pages=seed_pages)
        for heal in result.fields:
            assert heal.outcome != "healed" or heal.before != heal.after, heal



def test_pages_that_read_as_forged_are_never_healed_however_a_field_is_anchored():
    """Re-anchoring a selector (collegeboard's name, ``//h1`` before issue 41 anchored it on its box) mends
    drifted pages; on pages that read as forged (the saved seeds, unchanged) nothing is healed, so `heal`
    with no pages says it has no changed pages instead of writing a new version."""
    site = SWDE / "university" / "university-collegeboard"
    seeds = [parse_for_replay(read_page(p)) for p in sorted(site.glob("*.htm"))[:3]]
    fields = [FieldRequest("name", "the name of the university"), FieldRequest("phone", "the phone number")]
    spec = with_profile(induce_scraper(fields, seeds, method="heuristic"), seeds)
    # the name was the anchorless ``//h1`` until headings printed alike on every seed stopped counting as the
    # record's headline (issue 41); a selector anchored on its own box must not be healed either
    assert spec.field("name").actions == ["//div[@id='profile_hdr']/h1"]
    result = heal_spec(spec, seeds)
    assert result.healed == [] and not result.drifted


def test_a_field_healed_by_evidence_never_takes_a_value_with_a_label_its_values_lacked():
    """collegeboard's phone read "(719) 587-7011"; on redesigned pages that are not its seeds the evidence also
    finds "Fax: (719) 587-7522" blocks. Healed on those pages alone, the phone is the main number SWDE names."""
    from scrapesmith.induce.heal import EvidenceHeal

    site = SWDE / "university" / "university-collegeboard"
    paths = sorted(site.glob("*.htm"))[:10]
    seeds = [parse_for_replay(read_page(p)) for p in paths[:3]]
    spec = with_profile(induce_scraper([FieldRequest("phone", "the phone number")], seeds, method="heuristic"), seeds)
    changed = [parse_for_replay(mutate_page(read_page(p), "combined", seed=5)) for p in paths[3:]]
    result = heal_spec(spec, changed, EvidenceHeal(), seed_pages=0)
    assert result.healed == ["phone"]
    phones = load_groundtruth(SWDE / "groundtruth" / "university" / "university-collegeboard-phone.txt")
    compiled = CompiledSpec(result.spec)
    for path, tree in zip(paths[3:], changed, strict=True):
        assert compiled.row_from(compiled.extract_tree(tree))["phone"] == phones[path.stem][0]
