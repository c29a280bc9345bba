"""The sandbox generated programs run in: a child process with CPU, wall-time and memory limits.

Limits come from :mod:`resource` (``RLIMIT_CPU``, ``RLIMIT_AS``, ``RLIMIT_FSIZE``), which the child's
guard sets on itself before the program runs (no ``preexec_fn``, which is unsafe with threads), and a wall-clock timeout that kills the child's whole process group. The child starts
under :mod:`scrapesmith.collect.guard`, which confines network to the allowed hosts and writes to the
run directory. The outcome (stdout, stderr, exit status and why it stopped) goes back to the test agent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scrapesmith.collect.guard import ENV_ALLOW, ENV_LIMITS, ENV_RUN_DIR, EXIT_VIOLATION, VIOLATION


@dataclass(frozen=True)
class SandboxLimits:
    cpu_seconds: int = 120
    wall_seconds: float = 300.0
    memory_mb: int = 2048
    max_file_mb: int = 512


@dataclass
class SandboxResult:
    """What happened: ``reason`` is ok, error, cpu-limit, wall-limit, memory-limit or violation."""

    exit_status: int | None
    stdout: str
    stderr: str
    reason: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.reason == "ok"

    def summary(self) -> str:
        tail = self.stderr.strip().splitlines()[-3:]
        return f"{self.reason} (exit {self.exit_status}, {self.seconds:.1f}s)" + (": " + " | ".join(tail) if tail else "")


# The child imports the same scrapesmith as this process (a checkout run from source, not another install).
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def run_in_sandbox(program: Path, run_dir: Path, allow_hosts: list[str], limits: SandboxLimits | None = None,
                   args: list[str] | None = None) -> SandboxResult:
    """Run ``program`` confined to ``run_dir`` and ``allow_hosts`` (``host:port`` entries)."""
    limits = limits or SandboxLimits()
    run_dir = Path(run_dir).resolve()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(run_dir), "LANG": "C.UTF-8",
           ENV_RUN_DIR: str(run_dir), ENV_ALLOW: ",".join(allow_hosts), "PYTHONDONTWRITEBYTECODE": "1",
           "SCRAPESMITH_LLM": "none", "PYTHONPATH": _PACKAGE_ROOT,
           ENV_LIMITS: f"{limits.cpu_seconds},{limits.memory_mb},{limits.max_file_mb}"}
    command = [sys.executable, "-B", "-m", "scrapesmith.collect.guard", str(Path(program).resolve()), *(args or [])]
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=run_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        stdout, stderr = child.communicate(timeout=limits.wall_seconds)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        timed_out = True
    seconds = time.monotonic() - started
    reason = _reason(child.returncode, stderr, timed_out)
    if reason == "wall-limit":
        stderr += f"\nsandbox: stopped after the wall-time limit of {limits.wall_seconds:g}s"
    elif reason == "cpu-limit":
        stderr += f"\nsandbox: stopped after the CPU-time limit of {limits.cpu_seconds}s"
    elif reason == "memory-limit":
        stderr += f"\nsandbox: stopped at the memory limit of {limits.memory_mb} MB"
    return SandboxResult(child.returncode, stdout, stderr, reason, seconds)


def _reason(status: int | None, stderr: str, timed_out: bool) -> str:
    if timed_out:
        return "wall-limit"
    if VIOLATION in stderr or status == EXIT_VIOLATION:
        return "violation"
    if status in (-signal.SIGXCPU, -signal.SIGKILL) and "MemoryError" not in stderr:
        return "cpu-limit"
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr:
        return "memory-limit"
    return "ok" if status == 0 else "error"
