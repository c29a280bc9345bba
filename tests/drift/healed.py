"""One SWDE site's field forged, its pages redesigned by a mutation and the spec healed: the shared step of the
heal tests on real pages."""

from __future__ import annotations

from pathlib import Path

from scrapesmith.bench.drift import forge, rows_of
from scrapesmith.bench.swde import discover_sites, read_page
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.induce import parse_for_replay
from scrapesmith.induce.heal import heal_spec

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"


def healed_field(key: str, name: str, mutation: str, seed: int) -> tuple[list, list, str, str]:
    """The field's values on pages 3-9 as forged, and after ``mutation`` and heal; its selector before and after."""
    site = next(s for s in discover_sites(SWDE) if s.key == key)
    texts = [read_page(p) for p in site.page_paths()[:10]]
    spec = forge(site, texts, 3)
    changed = [mutate_page(t, mutation, seed) for t in texts]
    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])
    before = [r[name] for r in rows_of(spec, texts[3:])]
    after = [r[name] for r in rows_of(healed.spec, changed[3:])]
    return before, after, spec.field(name).actions[0], healed.spec.field(name).actions[0]
