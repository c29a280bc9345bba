"""The sandbox generated programs run in: bubblewrap isolation, a guarded network and resource limits.

A generated ``program.py`` is code a model wrote, so it runs as an attacker would be run
(:mod:`scrapesmith.collect.isolation`): under ``bwrap`` in its own namespaces with a read-only system, a
fresh folder of its own inside the run directory as the only writable place
(:mod:`scrapesmith.collect.outputs`), a scrubbed environment, stdin from ``/dev/null``, no process creation
(seccomp), and no network but the run's guard proxy on a Unix socket (:mod:`scrapesmith.collect.netproxy`),
which allows exactly the hosts the run allows. Inside, :mod:`scrapesmith.collect.guard` sets the CPU,
memory, file-size and process limits and installs an audit hook as a second layer that names what it
refused. From outside (:mod:`scrapesmith.collect.limits`) the parent holds a memory cgroup where the
machine allows one, a disk quota on what the run writes, and only the tail of its output. A wall-clock
timeout, a Ctrl-C or a SIGTERM kills the whole sandbox (its PID namespace dies with it). Once it has
ended, the parent makes sure through the run's cgroups that nothing of it is left (freezing and killing
what is: a run that said it ended while its processes went on is a violation, one whose processes cannot
be ended has its outputs left untouched), then moves the program's output files up into the run
directory without following anything the program planted, and removes its folder.

Without bubblewrap, generated code does not run unless the caller asks for ``unsafe_no_sandbox``
(``--unsafe-no-sandbox``): then only the audit hook, the rlimits, the parent's limits and the proxy stand
in the way. The outcome (the tails of stdout and stderr, exit status and why it stopped) goes back to the
caller.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scrapesmith.collect.guard import (
    ENV_ALLOW,
    ENV_CALLER,
    ENV_LIMITS,
    ENV_PROXY,
    ENV_RUN_DIR,
    EXIT_VIOLATION,
    VIOLATION,
    arm,
)
from scrapesmith.collect.isolation import SANDBOX_SOCKET, bwrap_command, bwrap_path, seccomp_file
from scrapesmith.collect.limits import DiskQuota, OutputTail, RunCgroup
from scrapesmith.collect.netproxy import NetworkGate
from scrapesmith.collect.outputs import fresh_program_folder, harvest
from scrapesmith.errors import ScrapesmithError
from scrapesmith.web import is_within

UNSAFE_FLAG = "--unsafe-no-sandbox"


class SandboxUnavailable(ScrapesmithError):
    """bubblewrap is missing, and the caller did not ask to run without OS isolation."""


@dataclass(frozen=True)
class SandboxLimits:
    cpu_seconds: int = 120
    wall_seconds: float = 300.0
    memory_mb: int = 2048  # the address space, and the memory cgroup (tmpfs pages included) where one is made
    max_file_mb: int = 512
    disk_mb: int = 2048  # all the run writes: its folder, and files it holds open after deleting them
    max_files: int = 10_000  # files and folders in the program's folder
    scratch_mb: int = 64  # the TMPDIR tmpfs
    output_kb: int = 256  # how much of the end of stdout, and of stderr, is kept
    dataset_mb: int = 64  # the largest dataset.csv the caller reads back into memory (a rerun's rows, -o)
    max_processes: int = 256  # RLIMIT_NPROC (threads count too); root ignores it, the seccomp filter does not
    unsafe_no_sandbox: bool = False  # run without bubblewrap: audit hook, rlimits, parent's limits and proxy only


@dataclass
class SandboxResult:
    """What happened: ``reason`` is ok, error, cpu-limit, wall-limit, memory-limit, disk-limit or violation.

    ``stdout`` and ``stderr`` are the kept tails (control characters replaced); ``notes`` says what of the
    program's folder was not taken over, one line each (also appended to ``stderr``)."""

    exit_status: int | None
    stdout: str
    stderr: str
    reason: str
    seconds: float
    isolated: bool = True
    refusals: list[str] | None = None
    notes: list[str] = field(default_factory=list)

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
    """Run ``program`` for ``run_dir``; its network reaches only ``allow_hosts`` (``host[:port]``).

    The program writes only in a fresh folder of its own inside ``run_dir``; when it has ended, its output
    files (:data:`~scrapesmith.collect.runtime.OUTPUT_FILES`) that are regular files of its own replace
    those in ``run_dir``, and the folder is removed. ``read_roots`` (local files and directories the
    program reads pages from) are bind-mounted read-only at their own paths; nothing else of the disk but
    the system, Python and ``program`` is there.

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
    if writable:  # the program's outputs land in the run directory: pages in there would not stay as they are
        raise ScrapesmithError(f"the local pages {', '.join(writable)} are inside the run directory {run_dir}, "
                               "where the program's outputs land; use a run directory outside them")
    with NetworkGate(allow_hosts) as gate:
        folder = fresh_program_folder(run_dir)
        cgroup = RunCgroup.create(limits.memory_mb * 2**20, limits.max_processes)
        ending = "empty"
        try:
            result = _run_confined(program, folder, gate, limits, args or [], roots, cgroup)
        finally:  # interrupted too: the rows so far (dataset.partial.jsonl) are the run's
            if cgroup is not None:  # nothing of the run may still be there to swap an entry while it is taken over
                cgroup.end()
                ending = cgroup.worst_end
                cgroup.remove()
            if ending == "stuck":
                stuck = f"sandbox: processes of the run could not be ended; its outputs were not taken over ({folder})"
                notes = [stuck]
            else:
                notes = harvest(folder, run_dir).notes()
        refusals = [r.message for r in gate.refusals]
    if ending != "empty" and result.reason in ("ok", "error"):  # it said it had ended, and had not
        result.reason = "violation"
        result.stderr += ("\nsandbox: processes of the run went on after it reported its end; "
                          + ("they could not be ended" if ending == "stuck" else "they were killed"))
    result.isolated = isolated
    result.refusals = refusals
    result.notes = notes
    result.stderr += "".join(f"\nsandbox network: refused {message}" for message in refusals)
    result.stderr += "".join(f"\n{note}" for note in notes)
    return result


def _run_confined(program: Path, folder: Path, gate: NetworkGate, limits: SandboxLimits, args: list[str],
                  roots: list[str], cgroup: RunCgroup | None) -> SandboxResult:
    """Run ``program`` with ``folder`` as its only writable place, through bwrap unless told otherwise."""
    isolated = not limits.unsafe_no_sandbox
    socket = SANDBOX_SOCKET if isolated else str(gate.socket_path)
    nproc = limits.max_processes if isolated else 0
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(folder), "LANG": "C.UTF-8",
           ENV_RUN_DIR: str(folder), ENV_ALLOW: "", ENV_PROXY: f"unix:{socket}", "PYTHONDONTWRITEBYTECODE": "1",
           "SCRAPESMITH_LLM": "none", "PYTHONPATH": _PACKAGE_ROOT,
           ENV_LIMITS: f"{limits.cpu_seconds},{limits.memory_mb},{limits.max_file_mb},{nproc}"}
    command = [sys.executable, "-B", "-m", "scrapesmith.collect.guard", str(program), *args]
    # the run's end of a pipe whose only write end is ours: it closes when we die, however we die
    alive, ours = os.pipe()
    env[ENV_CALLER] = str(alive)
    seccomp = seccomp_file() if isolated else None
    try:
        if isolated:
            command = bwrap_command(command, folder, gate.socket_path, _PACKAGE_ROOT, env, seccomp,
                                    [str(program), *roots], scratch_bytes=limits.scratch_mb * 2**20)
            env = {}
        result = _supervise(command, folder, env, () if seccomp is None else (seccomp,), alive, limits, cgroup)
        if isolated and result.exit_status == 1 and result.stderr.startswith("bwrap:"):
            raise SandboxUnavailable(
                f"bubblewrap cannot create the sandbox here ({result.stderr.splitlines()[0]}); allow "
                f"unprivileged user namespaces, or pass {UNSAFE_FLAG} to run generated code unconfined")
    finally:
        for fd in (ours, alive, seccomp):
            if fd is not None:
                os.close(fd)
    return result


def _supervise(command: list[str], folder: Path, env: dict[str, str], fds: tuple[int, ...], alive: int,
               limits: SandboxLimits, cgroup: RunCgroup | None) -> SandboxResult:
    """Start ``command`` in its own session (and the run's cgroups), stdin from /dev/null, keeping the tails
    of its output; stop it at the wall limit or the disk quota; kill the session on any way out."""
    quota = DiskQuota(folder, limits.disk_mb * 2**20, limits.max_files)
    if cgroup is not None:  # the shell moves itself in, then becomes the sandbox: nothing of it runs outside
        command = ["/bin/sh", "-c", _JOIN_CGROUPS, "sh", *(str(procs) for procs in cgroup.procs), "--", *command]
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True, pass_fds=(alive, *fds),
                             preexec_fn=_dies_with(os.getpid(), alive))  # noqa: PLW1509 (syscalls, no locks)
    tails = [OutputTail(pipe, limits.output_kb * 1024) for pipe in (child.stdout, child.stderr)]
    stopped = _wait(child, quota, started + limits.wall_seconds, cgroup)
    if cgroup is not None:  # before the output is read: a process left could hold the pipes open
        cgroup.end()
    oom_kills = cgroup.oom_kills() if cgroup is not None else 0
    stdout, stderr = (tail.text() for tail in tails)
    reason = _reason(child.returncode, stderr, stopped, oom_kills)
    if reason == "wall-limit":
        stderr += f"\nsandbox: stopped after the wall-time limit of {limits.wall_seconds:g}s"
    elif reason == "disk-limit":
        stderr += f"\nsandbox: stopped at the disk quota ({stopped[1]})"
    elif reason == "cpu-limit":
        stderr += f"\nsandbox: stopped after the CPU-time limit of {limits.cpu_seconds}s"
    elif reason == "memory-limit":
        stderr += f"\nsandbox: stopped at the memory limit of {limits.memory_mb} MB"
    return SandboxResult(child.returncode, stdout, stderr, reason, time.monotonic() - started)


_POLL_SECONDS = 0.2
# sh -c: write 0 to each cgroup.procs named before "--" (moving the shell in), then exec what follows
_JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo 0 > "$1" || exit 125; shift; done; shift; exec "$@"'
_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl


def _dies_with(caller: int, alive: int) -> Callable[[], None]:
    """Run in the child between fork and exec: SIGKILL it when the caller dies, from its first instant.

    bwrap's ``--die-with-parent`` asks the same, but only once bwrap has started: a caller killed while the
    shell or bwrap was still setting up left an orphaned sandbox whose sleeping program lived on (no caller
    to enforce the wall limit, no CPU time spent). The request survives the exec of sh and bwrap. bwrap's own
    child (the sandbox's first process) asks it only at the end of its setup, too late if bwrap died before:
    so the caller's end of the ``alive`` pipe closing SIGKILLs this child's process group (which that child
    keeps until its setup ends), then the guard, which takes the pipe over before the program runs
    (:func:`guard.end_with_caller`)."""
    def request() -> None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        arm(alive, -os.getpgrp())  # start_new_session made this child its group's leader
        if os.getppid() != caller:  # the caller died before the request took effect
            os._exit(1)

    return request


def _wait(child: subprocess.Popen, quota: DiskQuota, deadline: float,
          cgroup: RunCgroup | None) -> tuple[str, str] | None:
    """Wait for ``child``, checking the wall time and the disk quota five times a second (a thread
    reaps it, so its end is seen at once); ``(reason, detail)`` when the parent had to stop it."""
    ended = threading.Event()
    threading.Thread(target=lambda: (child.wait(), ended.set()), name="sandbox-reaper", daemon=True).start()

    def exceeded() -> str | None:  # the run's processes: its cgroup's where it has one
        if cgroup is None:
            return quota.exceeded(child.pid)
        try:
            return quota.exceeded(child.pid, cgroup.pids())
        except OSError as exc:
            return f"the disk use could not be measured ({exc.strerror or exc})"

    try:
        while not ended.wait(_POLL_SECONDS):
            over = None if time.monotonic() > deadline else exceeded()
            if time.monotonic() > deadline or over:
                _kill(child)
                ended.wait()
                return ("disk-limit", over) if over else ("wall-limit", "")
        over = exceeded()  # a program that wrote past the quota and ended at once
        return ("disk-limit", over) if over else None
    except BaseException:  # Ctrl-C, SIGTERM turned into KeyboardInterrupt, anything: nothing may outlive us
        _kill(child)
        ended.wait()
        raise


def _kill(child: subprocess.Popen) -> None:
    """SIGKILL the child's session; under bwrap its PID namespace (and everything in it) dies with it."""
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(child.pid, signal.SIGKILL)


def _reason(status: int | None, stderr: str, stopped: tuple[str, str] | None, oom_kills: int) -> str:
    if stopped is not None:
        return stopped[0]
    if VIOLATION in stderr or status == EXIT_VIOLATION:
        return "violation"
    if oom_kills:
        return "memory-limit"
    # A signal shows as -N directly, or as 128+N when bwrap's init passes the program's death on.
    if status in (-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU, 128 + signal.SIGKILL) \
            and "MemoryError" not in stderr:
        return "cpu-limit"
    if "MemoryError" in stderr or "Cannot allocate memory" in stderr:
        return "memory-limit"
    return "ok" if status == 0 else "error"
