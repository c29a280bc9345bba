"""ScraperSpec: JSON round trip, stable ids, and clear errors for bad spec files."""

from __future__ import annotations

import pytest

from scrapesmith.induce.views import FieldSpec, PostProcess, ScraperSpec, SpecError


def _spec() -> ScraperSpec:
    return ScraperSpec(
        site="example",
        fields=[
            FieldSpec(
                name="isbn",
                instruction="the ISBN",
                actions=["//div[@id='d']", "//b[.='ISBN']/following-sibling::text()[1]"],
            ),
            FieldSpec(name="author", actions=["//a[@class='author']"], post=PostProcess(multiple=True)),
        ],
    )


def test_spec_round_trips_through_json(tmp_path):
    spec = _spec()
    path = spec.save(tmp_path / "spec.json")
    loaded = ScraperSpec.load(path)
    assert loaded == spec
    assert loaded.spec_id == spec.spec_id
    assert loaded.field("author").post.multiple is True
    assert '"id": "spec-' in path.read_text()


def test_spec_id_changes_with_actions_not_with_evidence():
    spec = _spec()
    noted = spec.model_copy(deep=True)
    noted.fields[0].evidence = "label score=1.0"
    changed = spec.model_copy(deep=True)
    changed.fields[0].actions = ["//span"]
    assert noted.spec_id == spec.spec_id
    assert changed.spec_id != spec.spec_id


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"version": 9, "fields": []}', "version"),
        ('{"fields": [{"actions": []}]}', "fields.0.name"),
    ],
)
def test_bad_spec_files_raise_one_clear_error(text, message):
    with pytest.raises(SpecError, match=message):
        ScraperSpec.from_json(text)


def test_missing_spec_file_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match="not found"):
        ScraperSpec.load(tmp_path / "nope.json")
