"""The sandbox generated programs run in: bubblewrap isolation, a guarded network and resource limits.

A generated ``program.py`` is code a model wrote, so it runs as an attacker would be run
(:mod:`scrapesmith.collect.isolation`): under ``bwrap`` in its own namespaces with a read-only system, the
run directory as the only writable place, a scrubbed environment, no process creation (seccomp), and
no network but the run's guard proxy on a Unix socket (:mod:`scrapesmith.collect.netproxy`), which allows
exactly the hosts the run allows. Inside, :mod:`scrapesmith.collect.guard` sets the CPU, memory, file-size
and process limits and installs an audit hook as a second layer that names what it refused. A wall-clock
timeout, a Ctrl-C or a SIGTERM kills the whole sandbox (its PID namespace dies with it).

Without bubblewrap, generated code does not run unless the caller asks for ``unsafe_no_sandbox``
(``--unsafe-no-sandbox``): then only the audit hook, the rlimits and the proxy stand in the way.
The outcome (stdout, stderr, exit status and why it stopped) goes back to the caller.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scrapesmith.collect.guard import (
    ENV_ALLOW,
    ENV_LIMITS,
    ENV_PROXY,
    ENV_RUN_DIR,
    EXIT_VIOLATION,
    VIOLATION,
)
from scrapesmith.collect.isolation import SANDBOX_SOCKET_DIR, bwrap_command, bwrap_path, seccomp_file
from scrapesmith.collect.netproxy import SOCKET_NAME, NetworkGate
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web.files import is_within

UNSAFE_FLAG = "--unsafe-no-sandbox"


class SandboxUnavailable(ScrapesmithError):
    """bubblewrap is missing, and the caller did not ask to run without OS isolation."""


@dataclass(frozen=True)
class SandboxLimits:
    cpu_seconds: int = 120
    wall_seconds: float = 300.0
    memory_mb: int = 2048
    max_file_mb: int = 512
    max_processes: int = 256  # RLIMIT_NPROC (threads count too); root ignores it, the seccomp filter does not
    unsafe_no_sandbox: bool = False  # run without bubblewrap: audit hook, rlimits and proxy only


@dataclass
class SandboxResult:
    """What happened: ``reason`` is ok, error, cpu-limit, wall-limit, memory-limit or violation."""

    exit_status: int | None
    stdout: str
    stderr: str
    reason: str
    seconds: float
    isolated: bool = True
    refusals: list[str] | None = None

    @property
    def ok(self) -> bool:
        return self.reason == "ok"

    def summary(self) -> str:
        tail = self.stderr.strip().splitlines()[-3:]
        return f"{self.reason} (exit {self.exit_status}, {self.seconds:.1f}s)" + (": " + " | ".join(tail) if tail else "")


# The child imports the same scrapesmith as this process (a checkout run from source, not another install).
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def run_in_sandbox(program: Path, run_dir: Path, allow_hosts: list[str], limits: SandboxLimits | None = None,
                   args: list[str] | None = None, read_roots: list[str] | None = None) -> SandboxResult:
    """Run ``program`` confined to ``run_dir``; its network reaches only ``allow_hosts`` (``host[:port]``).

    ``read_roots`` (local files and directories the program reads pages from) are bind-mounted read-only
    at their own paths; nothing else of the disk but the system, Python and the run directory is there.

    Raises :class:`SandboxUnavailable` without bubblewrap (unless ``limits.unsafe_no_sandbox``). On
    Ctrl-C or SIGTERM (``KeyboardInterrupt``) the sandbox is killed before the interrupt goes on.
    """
    limits = limits or SandboxLimits()
    isolated = not limits.unsafe_no_sandbox
    if isolated and bwrap_path() is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed, so generated code cannot run isolated: install it "
            f"('make bubblewrap' or 'apt-get install bubblewrap'), or pass {UNSAFE_FLAG} to run it unconfined")
    run_dir = Path(run_dir).resolve()
    program = Path(program).resolve()
    roots = [os.path.realpath(root) for root in read_roots or []]
    gone = [root for root in roots if not os.path.exists(root)]
    if gone:
        raise ScrapesmithError(f"the local pages {', '.join(gone)} no longer exist")
    writable = [root for root in roots if is_within(root, str(run_dir))]
    if writable:  # the run directory is the program's to write: pages in there would not stay read-only
        raise ScrapesmithError(f"the local pages {', '.join(writable)} are inside the run directory {run_dir}, "
                               "where the program may write; use a run directory outside them")
    with NetworkGate(allow_hosts) as gate:
        socket = f"{SANDBOX_SOCKET_DIR}/{SOCKET_NAME}" if isolated else str(gate.socket_path)
        nproc = limits.max_processes if isolated else 0
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(run_dir), "LANG": "C.UTF-8",
               ENV_RUN_DIR: str(run_dir), ENV_ALLOW: "", ENV_PROXY: f"unix:{socket}", "PYTHONDONTWRITEBYTECODE": "1",
               "SCRAPESMITH_LLM": "none", "PYTHONPATH": _PACKAGE_ROOT,
               ENV_LIMITS: f"{limits.cpu_seconds},{limits.memory_mb},{limits.max_file_mb},{nproc}"}
        command = [sys.executable, "-B", "-m", "scrapesmith.collect.guard", str(program), *(args or [])]
        seccomp = seccomp_file() if isolated else None
        try:
            if isolated:
                command = bwrap_command(command, run_dir, gate.socket_dir, _PACKAGE_ROOT, env, seccomp,
                                        [str(program), *roots])
                env = {}
            result = _supervise(command, run_dir, env, () if seccomp is None else (seccomp,), limits)
            if isolated and result.exit_status == 1 and result.stderr.startswith("bwrap:"):
                raise SandboxUnavailable(
                    f"bubblewrap cannot create the sandbox here ({result.stderr.splitlines()[0]}); allow "
                    f"unprivileged user namespaces, or pass {UNSAFE_FLAG} to run generated code unconfined")
        finally:
            if seccomp is not None:
                os.close(seccomp)
        refusals = [r.message for r in gate.refusals]
    result.isolated = isolated
    result.refusals = refusals
    if refusals:
        result.stderr += "".join(f"\nsandbox network: refused {message}" for message in refusals)
    return result


def _supervise(command: list[str], run_dir: Path, env: dict[str, str], fds: tuple[int, ...],
               limits: SandboxLimits) -> SandboxResult:
    """Start ``command`` in its own session, wait up to the wall limit, kill the session on any way out."""
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=run_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace", start_new_session=True, pass_fds=fds)
    try:
        stdout, stderr = child.communicate(timeout=limits.wall_seconds)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill(child)
        stdout, stderr = child.communicate()
        timed_out = True
    except BaseException:  # Ctrl-C, SIGTERM turned into KeyboardInterrupt, anything: nothing may outlive us
        _kill(child)
        child.communicate()
        raise
    seconds = time.monotonic() - started
    reason = _reason(child.returncode, stderr, timed_out)
    if reason == "wall-limit":
        stderr += f"\nsandbox: stopped after the wall-time limit of {limits.wall_seconds:g}s"
    elif reason == "cpu-limit":
        stderr += f"\nsandbox: stopped after the CPU-time limit of {limits.cpu_seconds}s"
    elif reason == "memory-limit":
        stderr += f"\nsandbox: stopped at the memory limit of {limits.memory_mb} MB"
    return SandboxResult(child.returncode, stdout, stderr, reason, seconds)


def _kill(child: subprocess.Popen) -> None:
    """SIGKILL the child's session; under bwrap its PID namespace (and everything in it) dies with it."""
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(child.pid, signal.SIGKILL)


def _reason(status: int | None, stderr: str, timed_out: bool) -> str:
    if timed_out:
        return "wall-limit"
    if VIOLATION in stderr or status == EXIT_VIOLATION:
        return "violation"
    # A signal shows as -N directly, or as 128+N when bwrap's init passes the program's death on.
    if status in (-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU, 128 + signal.SIGKILL) \
            and "MemoryError" not in stderr:
        return "cpu-limit"
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr:
        return "memory-limit"
    return "ok" if status == 0 else "error"
