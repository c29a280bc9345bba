"""A run stopped midway (kill -9, Ctrl-C) continues with --resume: every URL exactly once in the dataset."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from .conftest import ENV, assert_every_item_once, command, scrapesmith, write_inputs

ITEMS = range(240)
BATCH = 10


def _start_and_stop_midway(tmp_path: Path, committed_batches, stop: signal.Signals,
                           *extra: str) -> subprocess.Popen:
    """Start a run over ITEMS and send ``stop`` to its process group once a few batches are committed."""
    args = ("run", "spec.json", "urls.txt", "-o", "items.parquet", "--allow-host", "127.0.0.1", "--delay", "0",
            "--batch-size", str(BATCH), *extra)
    process = subprocess.Popen(command(*args), cwd=tmp_path, env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while committed_batches(tmp_path / "items.run") < 5:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run committed nothing"
        time.sleep(0.05)
    os.killpg(process.pid, stop)
    process.wait(timeout=30)
    return process


def test_a_run_killed_with_sigkill_resumes_with_every_url_exactly_once(tmp_path, slow_shop, committed_batches):
    write_inputs(tmp_path, slow_shop, ITEMS)
    killed = _start_and_stop_midway(tmp_path, committed_batches, signal.SIGKILL, "--workers", "2")
    assert killed.returncode == -signal.SIGKILL
    done_before = committed_batches(tmp_path / "items.run")
    assert 5 <= done_before < len(ITEMS) // BATCH and not (tmp_path / "items.parquet").exists()

    resumed = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.parquet", "--allow-host", "127.0.0.1",
                          "--delay", "0", "--batch-size", str(BATCH), "--workers", "2", "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{done_before * BATCH} pages done before this run" in resumed.stderr
    assert_every_item_once(tmp_path / "items.parquet", ITEMS)
    # What the kill cost: only the batches in flight (two workers, two batches each) were fetched again.
    stats = slow_shop.site.stats()
    assert stats["items_fetched"] == len(ITEMS) and stats["fetched_twice"] <= 4 * BATCH


def test_ctrl_c_stops_a_run_that_resume_finishes(tmp_path, slow_shop, committed_batches):
    write_inputs(tmp_path, slow_shop, ITEMS)
    interrupted = _start_and_stop_midway(tmp_path, committed_batches, signal.SIGINT)
    _out, err = interrupted.communicate()
    assert interrupted.returncode == 130
    assert "rerun with --resume" in err and "Traceback" not in err

    rerun = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.parquet", "--allow-host", "127.0.0.1",
                        cwd=tmp_path)
    assert rerun.returncode == 1 and "unfinished run: continue it, or remove the directory to start over (--resume continues it)" in rerun.stderr

    resumed = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.parquet", "--allow-host", "127.0.0.1",
                          "--delay", "0", "--batch-size", str(BATCH), "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert_every_item_once(tmp_path / "items.parquet", ITEMS)


def test_resume_refuses_a_url_list_that_changed(tmp_path, shop):
    write_inputs(tmp_path, shop, range(30))
    first = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.csv", "--allow-host", "127.0.0.1",
                        "--batch-size", "10", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    write_inputs(tmp_path, shop, range(5, 35))
    again = scrapesmith("run", "spec.json", "urls.txt", "-o", "items.csv", "--allow-host", "127.0.0.1",
                        "--batch-size", "10", "--resume", cwd=tmp_path)
    assert again.returncode == 1 and "the URL list changed since this run began" in again.stderr
