"""A synthetic shop on 127.0.0.1 (pages made on request, request times logged) and the real command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import scrapesmith
from scrapesmith.induce.views import FieldSpec, ScraperSpec
from scrapesmith.io import read_rows
from scrapesmith.sites.synthetic import ITEM_FIELDS, SyntheticServer, item_truth, serve_synthetic

# The command runs from a temporary directory: it must import this checkout, whatever PYTHONPATH says.
SOURCE = str(Path(scrapesmith.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([SOURCE, os.environ.get("PYTHONPATH", "")]),
       "SCRAPESMITH_POLITENESS_DELAY": "0", "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}


@pytest.fixture
def shop() -> Iterator[SyntheticServer]:
    with serve_synthetic(100_000) as server:
        yield server


@pytest.fixture
def slow_shop() -> Iterator[SyntheticServer]:
    """Each answer 10 ms late, so a run of a few hundred pages lasts long enough to be stopped midway."""
    with serve_synthetic(100_000, latency=0.01) as server:
        yield server


def write_inputs(workdir: Path, server: SyntheticServer, numbers: range | list[int], name: str = "urls.txt") -> Path:
    """The spec of the shop's item pages and a URL list of the given items."""
    ScraperSpec(fields=[FieldSpec(name=field, actions=[xpath]) for field, xpath in ITEM_FIELDS.items()]).save(
        workdir / "spec.json")
    urls = workdir / name
    urls.write_text("".join(f"{server.url(n)}\n" for n in numbers), encoding="utf-8")
    return urls


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "scrapesmith", *args]


def scrapesmith(*args: str, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout,
                          check=False)


def item_number(url: str) -> int:
    return int(url.rsplit("/", 1)[1])


def assert_every_item_once(dataset: Path, numbers: range | list[int], versions: dict[int, int] | None = None) -> None:
    """Each item exactly once in the dataset, with the values its page shows."""
    rows = read_rows(dataset)
    seen = [item_number(row["source_url"]) for row in rows]
    assert sorted(seen) == sorted(numbers), "lost or duplicated items"
    for row in rows:
        number = item_number(row["source_url"])
        expected = item_truth(number, (versions or {}).get(number, 0))
        assert {field: row[field] for field in expected} == expected
        assert row["error"] in (None, "")
