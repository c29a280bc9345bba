"""After ``kill -9`` of a run, its pool workers and resource tracker end too (issue 19: they stayed alive)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil

POOL = """
import time
from scrapesmith.scale.runner import LocalPoolRunner
runner = LocalPoolRunner(2)
print("started", flush=True)
list(runner.map_unordered(time.sleep, [120, 120]))
"""


def test_pool_workers_end_when_their_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", POOL], stdout=subprocess.PIPE, text=True, env=os.environ)
    try:
        assert parent.stdout.readline().strip() == "started"
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while time.monotonic() < deadline and len(workers) < 2:
            workers = [child for child in psutil.Process(parent.pid).children()
                       if "spawn_main" in " ".join(child.cmdline())]
            time.sleep(0.2)
        assert len(workers) == 2
        left_behind = psutil.Process(parent.pid).children(recursive=True)  # the workers and the resource tracker
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        _, alive = psutil.wait_procs(left_behind, timeout=15)
        assert not alive, [w.pid for w in alive]
    finally:
        if parent.poll() is None:
            parent.kill()
