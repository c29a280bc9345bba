"""A field with several values in separate places (a car's city and highway mileage, read by a union of two
label-anchored paths) on real SWDE auto pages: losing one of its values is drift, and heal re-finds each."""

from __future__ import annotations

import pytest
from swde_truth import swde_truth, truth_f1

from scrapesmith.bench.drift import rows_of
from scrapesmith.dom.mutate import mutate_page
from scrapesmith.drift import compare, profile_rows
from scrapesmith.induce.examples import kind_of
from scrapesmith.induce.execute import parse_for_replay
from scrapesmith.induce.heal import heal_spec


def test_cells_that_lost_one_of_their_values_are_drift(auto_msn):
    spec, texts = auto_msn
    [field] = [f for f in spec.fields if f.name == "fuel_economy"]
    assert " | " in field.actions[0]  # the forged selector is a union: one path per value
    changed = [mutate_page(t, "reorder", 1) for t in texts[3:]]
    rows = rows_of(spec, changed)
    assert all(len(r["fuel_economy"]) == 1 for r in rows)  # still filled, with one number: fill sees nothing
    drifts = [d for d in compare(spec.profile, rows, kind_of).drifts if d.column == "fuel_economy"]
    assert [(d.check, d.evidence) for d in drifts] == [
        ("several", "fuel_economy: 0 of 7 cells hold several values, was 3 of 3")]


def test_a_list_with_one_value_here_and_there_is_no_drift():
    seed = [{"genre": ["Drama", "War"]}, {"genre": ["Comedy", "Romance"]}, {"genre": ["Action", "Drama"]}]
    profile = profile_rows(seed, ["genre"], kind_of, seed=True)
    rows = [{"genre": ["Drama"] if i % 3 == 0 else ["Drama", "Crime"]} for i in range(30)]
    assert not compare(profile, rows, kind_of).drifted


@pytest.mark.parametrize("seed", [0, 1])
def test_heal_re_finds_each_value_of_a_union_field(auto_msn, seed):
    spec, texts = auto_msn
    changed = [mutate_page(t, "reorder", seed) for t in texts]
    healed = heal_spec(spec, [parse_for_replay(t) for t in changed[:3]])
    assert "fuel_economy" in healed.healed
    truth = swde_truth("auto-msn", [f"{n:04d}" for n in range(3, 10)], ["fuel_economy"])
    before = truth_f1(rows_of(spec, texts[3:]), truth, "fuel_economy")
    assert before >= 0.9  # SWDE's city and highway figures, read on the unchanged pages
    assert truth_f1(rows_of(healed.spec, changed[3:]), truth, "fuel_economy") >= before
