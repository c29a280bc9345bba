"""No alarm on unchanged pages: a spec's output on the site's other pages, as they are, reads as forged.
Real SWDE pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scrapesmith.bench.drift import forge, forge_on, rows_of
from scrapesmith.bench.swde import discover_sites, read_page, requests_for
from scrapesmith.dom import parse_html
from scrapesmith.drift import compare
from scrapesmith.induce import kind_of
from scrapesmith.induce.cleaning import SeedTexts, template_affix
from scrapesmith.induce.field_evidence import concept_for

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"

pytestmark = pytest.mark.skipif(not SWDE.is_dir(), reason="SWDE data not present")


def test_words_three_seeds_share_by_chance_do_not_empty_the_field_elsewhere():
    """auto-aol's three seed pages are one car make ("Hyundai Accent Blue 2dr Hatchback", "… GS …", "… GLS …"):
    the words they share are cut as template, but the next pages are another make, and a regex that required
    them read nothing there — "model: 0 of 7 filled, was 3 of 3" on pages nobody changed."""
    site = next(s for s in discover_sites(SWDE) if s.key == "auto-aol")
    texts = [read_page(p) for p in site.page_paths()[:10]]
    spec = forge(site, texts, 3)
    rows = rows_of(spec, texts[3:])

    assert all(row["model"] for row in rows)
    assert not compare(spec.profile, rows, kind_of).drifted


def test_a_template_affix_is_cut_where_present_and_never_required():
    """The headings of auto-aol's seed pages, each trim also printed on its own (the page's trim list)."""
    trims = ["Blue 2dr Hatchback", "GS 2dr Hatchback", "GLS 4dr Sedan"]
    seeds = [parse_html(f"<html><body><h2>Hyundai Accent {t}</h2><ul><li>{t}</li></ul></body></html>")
             for t in trims]
    regex = template_affix([[f"Hyundai Accent {t}"] for t in trims], concept_for("model", "the model of the auto"),
                           SeedTexts(seeds))

    assert regex is not None
    assert re.match(regex, "Hyundai Accent GL 4dr Sedan").group(1) == "GL 4dr Sedan"
    assert re.match(regex, "Nissan Versa 1.8S 4dr Sedan").group(1) == "Nissan Versa 1.8S 4dr Sedan"


def test_the_template_words_a_spec_cuts_are_kept_and_checked_on_real_pages():
    """A title asked for alone on book-borders (no author field beside it to claim the ``author_name`` line) is
    cut out of "Lisa Kleypas (See All Contributors)"; blocks reversed, the link moves before the name and the
    cut no longer takes it off: every value holds the template's words, an alarm, where fill, kind and length
    see nothing. On the pages as they are: none."""
    from scrapesmith.dom.mutate import mutate_page

    site = next(s for s in discover_sites(SWDE) if s.key == "book-borders")
    texts = [read_page(p) for p in site.page_paths()[:10]]
    spec = forge_on([r for r in requests_for(site) if r.name == "title"], texts[:3], site.key)
    assert spec.profile.column("title").cut == ["See All Contributors"]
    assert not compare(spec.profile, rows_of(spec, texts[3:]), kind_of).drifted

    changed = [mutate_page(t, "reorder", 0) for t in texts[3:]]
    assert [d.check for d in compare(spec.profile, rows_of(spec, changed), kind_of).drifts] == ["cut"]
