"""``bench scale``'s measurement of one configuration, small: the real command, watched from outside."""

from __future__ import annotations

from scrapesmith.bench.scale import ScaleSettings, measure_run, summarise, throughput_plan
from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.sites.synthetic import ITEM_FIELDS, serve_in_process


def test_one_configuration_is_measured_and_its_dataset_checked_against_the_truth(tmp_path):
    ScraperSpec(fields=[FieldSpec(name=name, actions=[xpath]) for name, xpath in ITEM_FIELDS.items()]).save(
        tmp_path / "spec.json")
    with serve_in_process(1_000) as host:
        case = measure_run(tmp_path, host, "local", 2, 300, ScaleSettings(batch_size=50))
    assert (case["rows"], case["lost"], case["duplicated"], case["wrong"], case["failed"]) == (300, 0, 0, 0, 0)
    assert case["pages_per_s"] > 0 and case["driver_peak_mb"] > 0 and case["worker_peak_mb"] > 0
    assert case["others_cpu_ms_per_page"] > 0 and case["server_cpu_ms_per_page"] > 0
    # the steady rate leaves out what came before the first batch: the pool's workers starting
    assert 0 < case["first_batch_seconds"] < case["run_seconds"] and case["steady_pages_per_s"] > 0
    assert case["cpu_ceiling_pages_per_s"] > 0 and case["command_pages_per_s"] < case["pages_per_s"]


def test_rounds_are_interleaved_and_summed_up_as_median_and_range_of_every_round():
    settings = ScaleSettings(runners=("local",), workers=(1, 2), rounds=3, throughput_pages=100, sizes=(100,))
    assert throughput_plan(settings) == [(0, ("local", 1)), (0, ("local", 2)), (1, ("local", 2)),
                                         (1, ("local", 1)), (2, ("local", 1)), (2, ("local", 2))]
    rates = {(0, 1): 100.0, (0, 2): 190.0, (1, 1): 50.0, (1, 2): 60.0, (2, 1): 100.0, (2, 2): 170.0}
    figures = ("steady_pages_per_s", "command_pages_per_s", "cpu_ceiling_pages_per_s", "run_cpu_ms_per_page",
               "server_cpu_ms_per_page")
    cases = [{"round": r, "runner": "local", "workers": w, "pages": 100, "pages_per_s": rate,
              **dict.fromkeys(figures, 1.0), "driver_peak_mb": 1.0, "worker_peak_mb": 1.0, "lost": 0,
              "duplicated": 0, "wrong": 0} for (r, w), rate in rates.items()]
    resume = {"lost": 0, "duplicated": 0, "wrong": 0, "fetched_twice": 0, "committed_at_kill": 0}
    summary = summarise(cases, resume, settings)
    assert summary["local_second_worker_adds_each_round"] == [0.9, 0.2, 0.7]
    assert (summary["local_second_worker_adds"], summary["local_second_worker_adds_range"]) == (0.7, [0.2, 0.9])
    assert summary["local_x1_pages_per_s"] == 100.0 and summary["local_x1_pages_per_s_range"] == [50.0, 100.0]
    assert summary["local_second_worker_adds_on_free_cores"] == 1.0  # the same CPU per page with two workers
