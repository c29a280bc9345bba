"""Ctrl-C or SIGTERM during ``scrapesmith run program.py``: the sandbox stops, exit 130, partial rows marked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from scrapesmith.collect.isolation import bwrap_path

PROGRAM = """
import time
from scrapesmith.collect.runtime import Collection

with Collection("interrupted", allow_hosts=[], delay=0) as run:
    run.write([{"n": 1}, {"n": 2}, {"n": 3}])
    time.sleep(120)
"""


def _alive(marker: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(entry.name)
            except OSError:
                continue
    return found


@pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap is not installed (make bubblewrap)")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_rerun_exits_130_and_leaves_only_a_partial_dataset(tmp_path, signum):
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    (tmp_path / "dataset.csv").write_text("n\n1\n")  # a previous complete dataset: must not be replaced
    cli = subprocess.Popen([sys.executable, "-m", "scrapesmith", "run", str(program)], cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    partial = None
    while time.monotonic() < deadline:
        found = list(tmp_path.glob("reruns/*/.program-*/dataset.partial.jsonl"))  # its own folder while it runs
        if found and len(found[0].read_text().splitlines()) == 3:
            partial = found[0].parent.parent / found[0].name  # where the rerun keeps it once the sandbox stopped
            break
        time.sleep(0.1)
    assert partial is not None, "the program never wrote its rows"
    running = [psutil.Process(int(pid)) for pid in _alive(str(program))]
    names = sorted(process.name() for process in running)
    assert names.count("bwrap") >= 1 and names.count(Path(sys.executable).name) >= 2, names  # command + program
    cli.send_signal(signum)
    _out, err = cli.communicate(timeout=30)
    assert cli.returncode == 130, err
    assert "interrupted: the sandbox was stopped" in err and str(partial) in err and "Traceback" not in err
    assert (tmp_path / "dataset.csv").read_text() == "n\n1\n"
    assert not (partial.parent / "dataset.csv").exists()
    assert [json.loads(line)["n"] for line in partial.read_text().splitlines()] == [1, 2, 3]
    record = json.loads((partial.parent / "rerun.run.json").read_text())
    assert record["interrupted"] is True and record["partial_rows"] == 3
    assert "INTERRUPTED" in (partial.parent / "rerun.report.html").read_text()
    _gone, left = psutil.wait_procs(running, timeout=30)  # the kernel ends a sandbox's namespace as it reaps it
    assert left == [] and _alive(str(program)) == []
