"""``bench scale``'s measurement of one configuration, small: the real command, watched from outside."""

from __future__ import annotations

from scrapesmith.bench.scale import ScaleSettings, measure_run
from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.sites.synthetic import ITEM_FIELDS, serve_in_process


def test_one_configuration_is_measured_and_its_dataset_checked_against_the_truth(tmp_path):
    ScraperSpec(fields=[FieldSpec(name=name, actions=[xpath]) for name, xpath in ITEM_FIELDS.items()]).save(
        tmp_path / "spec.json")
    with serve_in_process(1_000) as host:
        case = measure_run(tmp_path, host, "local", 2, 300, ScaleSettings(batch_size=50))
    assert (case["rows"], case["lost"], case["duplicated"], case["wrong"], case["failed"]) == (300, 0, 0, 0, 0)
    assert case["pages_per_s"] > 0 and case["driver_peak_mb"] > 0 and case["worker_peak_mb"] > 0
    assert case["others_cpu_ms_per_page"] > 0
