"""The same run on Ray and on the local pool gives the same dataset (one test: Ray starts slowly)."""

from __future__ import annotations

import pytest

from scrapesmith.io import read_rows

from .conftest import assert_every_item_once, scrapesmith, write_inputs

pytest.importorskip("ray")


def test_ray_and_the_local_pool_give_identical_datasets(tmp_path, shop):
    write_inputs(tmp_path, shop, range(120))
    common = ("run", "spec.json", "urls.txt", "--allow-host", "127.0.0.1", "--workers", "2", "--batch-size", "15",
              "--delay", "0.005")
    pool = scrapesmith(*common, "-o", "pool.parquet", cwd=tmp_path)
    assert pool.returncode == 0, pool.stderr
    ray = scrapesmith(*common, "-o", "ray.parquet", "--ray", cwd=tmp_path, timeout=300)
    assert ray.returncode == 0, ray.stderr
    assert_every_item_once(tmp_path / "ray.parquet", range(120))

    def without_time(path):
        return [{k: v for k, v in row.items() if k != "fetched_at"} for row in read_rows(path)]

    assert without_time(tmp_path / "ray.parquet") == without_time(tmp_path / "pool.parquet")
    assert shop.site.robots == 2  # once per run, not once per worker or batch
