"""Which of this process's cgroups a run's cgroups go under, read from mountinfo and /proc/self/cgroup as the
kernel writes them: here real files in a temporary folder laid out as a cgroup v1 + v2 machine would be."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapesmith.collect import cgroups


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pids and freezer on v1 hierarchies, memory only on the unified (v2) one, the caller in /app."""
    for folder in ("v1-pids/app", "v1-freezer/app", "unified/app"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "unified/app/cgroup.subtree_control").write_text("memory pids\n")
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        f"30 25 0:26 / {tmp_path}/unified rw,nosuid - cgroup2 cgroup2 rw\n"
        f"31 25 0:27 / {tmp_path}/v1-pids rw,nosuid - cgroup cgroup rw,pids\n"
        f"32 25 0:28 / {tmp_path}/v1-freezer rw,nosuid - cgroup cgroup rw,freezer\n")
    own = tmp_path / "cgroup"
    own.write_text("3:pids:/app\n2:freezer:/app\n0::/app\n")
    monkeypatch.setattr(cgroups, "_CGROUP_ROOTS", str(mountinfo))
    monkeypatch.setattr(cgroups, "_OWN_CGROUPS", str(own))
    return tmp_path


def test_memory_on_v2_pids_and_freezer_prefer_their_v1_hierarchies(machine):
    assert cgroups._own_memory_cgroup() == (machine / "unified/app", cgroups._V2)
    assert cgroups._own_cgroup("pids") == (machine / "v1-pids/app", 1)
    assert cgroups._own_cgroup("freezer") == (machine / "v1-freezer/app", 1)


def test_a_v2_controller_not_enabled_for_children_is_not_used_but_the_v2_freezer_always_is(machine):
    (machine / "unified/app/cgroup.subtree_control").write_text("cpu\n")
    (machine / "cgroup").write_text("0::/app\n")  # no v1 hierarchy holds the caller
    assert cgroups._own_memory_cgroup() is None
    assert cgroups._own_cgroup("pids") is None
    assert cgroups._own_cgroup("freezer") == (machine / "unified/app", 2)


def test_no_cgroup_where_the_kernel_files_cannot_be_read(machine, monkeypatch):
    monkeypatch.setattr(cgroups, "_CGROUP_ROOTS", str(machine / "missing"))
    assert cgroups._own_memory_cgroup() is None and cgroups._own_cgroup("pids") is None
