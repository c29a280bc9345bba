"""Settings read from the environment."""

from __future__ import annotations

from scrapesmith.config import Settings


def test_allow_hosts_accepts_a_comma_separated_environment_variable(monkeypatch):
    monkeypatch.setenv("SCRAPESMITH_ALLOW_HOSTS", "127.0.0.1, localhost:8080")
    assert Settings().allow_hosts == ["127.0.0.1", "localhost:8080"]


def test_allow_hosts_defaults_to_no_exemption(monkeypatch):
    monkeypatch.delenv("SCRAPESMITH_ALLOW_HOSTS", raising=False)
    assert Settings().allow_hosts == []
