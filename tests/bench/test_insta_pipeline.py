"""The throughput bench shares the cores among the workers' embedded models and leaves the environment as found."""

from __future__ import annotations

import os

from scrapesmith.bench.insta_pipeline import THREADS_VARIABLE, _threads_per_worker


def test_threads_are_split_among_workers_and_restored(monkeypatch):
    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    with _threads_per_worker(2):
        assert os.environ[THREADS_VARIABLE] == "2"
    with _threads_per_worker(8):
        assert os.environ[THREADS_VARIABLE] == "1"
    assert THREADS_VARIABLE not in os.environ


def test_a_threads_setting_of_the_user_wins(monkeypatch):
    monkeypatch.setenv(THREADS_VARIABLE, "3")
    with _threads_per_worker(4):
        assert os.environ[THREADS_VARIABLE] == "3"
    assert os.environ[THREADS_VARIABLE] == "3"
