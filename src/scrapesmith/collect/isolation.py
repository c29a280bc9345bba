"""OS-level isolation for generated programs: the ``bwrap`` (bubblewrap) command line and its seccomp filter.

The program runs with ``bwrap --unshare-all --die-with-parent --new-session``: its own user, PID, network,
IPC, UTS and cgroup namespaces, no capabilities, and a file system that holds only

* the system (``/usr`` and its ``/bin``, ``/lib`` links), the Python installation, the virtualenv and the
  scrapesmith package root, all read-only;
* the program's folder, bind-mounted writable at its own path (the only place writes survive);
* the local pages the run reads (``collect --from`` files and directories, a program's granted
  ``READ_ROOTS``), bind-mounted read-only at their own paths (``extra_read_only``);
* a throwaway tmpfs for scratch files (``TMPDIR``), capped at ``scratch_bytes`` (tmpfs pages are memory
  no address-space limit counts; with a bubblewrap too old for ``--size``, ``TMPDIR`` is the program's
  folder instead, under the run's disk quota); everything else is read-only and empty, so
  ``/etc/passwd``, ``~/.ssh`` and other processes' ``/proc/<pid>/environ`` do not exist in there, and
  ``/dev`` (its ``/dev/shm`` included) is read-only;
* the guard proxy's Unix socket, the program's only way out to the network: the socket file alone,
  read-only, in an otherwise empty read-only folder.

A seccomp filter (compiled here to classic BPF, handed to ``bwrap --seccomp``) refuses creating processes
— ``fork``, ``vfork`` and every ``clone`` that is not a thread — with ``EPERM``; ``clone3`` answers
``ENOSYS`` so the C library falls back to ``clone``, whose flags a filter can read. This is what bounds a
fork bomb when the caller is root, for whom the kernel ignores ``RLIMIT_NPROC`` (threads are bounded by the
run's pids cgroup, :mod:`scrapesmith.collect.limits`). It also refuses ``ptrace``, ``process_vm_readv`` and
``-writev`` and ``pidfd_getfd``: no process of the sandbox reaches into another (bwrap's init above all).
"""

from __future__ import annotations

import errno
import functools
import os
import platform
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

BWRAP = "bwrap"
SANDBOX_SOCKET = "/run/scrapesmith/proxy.sock"
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# (fork, vfork, clone, clone3) per architecture; aarch64 has no fork/vfork system calls.
_SYSCALLS = {"x86_64": (57, 58, 56, 435), "aarch64": (None, None, 220, 435)}
# (unshare, setns): no new namespaces from inside either.
_NAMESPACE_CALLS = {"x86_64": (272, 308), "aarch64": (97, 268)}
# (ptrace, process_vm_readv, process_vm_writev, pidfd_getfd): no reaching into another process of the sandbox,
# bwrap's init above all (same user, dumpable), whose parent-death signal and exit report hold the run's end.
_TRACE_CALLS = {"x86_64": (101, 310, 311, 438), "aarch64": (117, 270, 271, 438)}
_CLONE_THREAD = 0x00010000


def bwrap_path() -> str | None:
    """Where ``bwrap`` is, or ``None`` when bubblewrap is not installed."""
    return shutil.which(BWRAP)


@functools.cache
def _bwrap_sizes_tmpfs(binary: str) -> bool:
    """Whether this bubblewrap has ``--size`` (0.8 and later) to cap a tmpfs."""
    try:
        usage = subprocess.run([binary, "--help"], check=False, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--size" in usage


def seccomp_program() -> bytes | None:
    """A classic-BPF seccomp filter refusing process creation (threads allowed), new namespaces and reaching into
    another process; ``None`` on other CPUs."""
    machine = platform.machine()
    if machine not in _AUDIT_ARCH:
        return None
    fork, vfork, clone, clone3 = _SYSCALLS[machine]
    allow, eperm = 0x7FFF0000, 0x00050000 | errno.EPERM
    enosys, kill = 0x00050000 | errno.ENOSYS, 0x80000000
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    # Each entry: (code, jump-if-true label, jump-if-false label, k); labels resolve to relative offsets.
    code: list[tuple[int, str | None, str | None, int]] = [
        (ld, None, None, 4), (jeq, None, "kill", _AUDIT_ARCH[machine]), (ld, None, None, 0)]
    if machine == "x86_64":
        code.append((jge, "kill", None, 0x40000000))  # the x32 ABI: other numbers, refuse outright
    for number in (fork, vfork, *_NAMESPACE_CALLS[machine], *_TRACE_CALLS[machine]):
        if number is not None:
            code.append((jeq, "eperm", None, number))
    code += [(jeq, "enosys", None, clone3), (jeq, "clone", None, clone), (ret, None, None, allow)]
    labels = {"clone": len(code)}
    code += [(ld, None, None, 16), (jset, "allow", "eperm", _CLONE_THREAD)]
    for name, value in (("allow", allow), ("eperm", eperm), ("enosys", enosys), ("kill", kill)):
        labels[name] = len(code)
        code.append((ret, None, None, value))
    out = b""
    for index, (op, true, false, k) in enumerate(code):
        jt = labels[true] - index - 1 if true else 0
        jf = labels[false] - index - 1 if false else 0
        out += struct.pack("=HBBI", op, jt, jf, k)
    return out


def _read_only_roots(package_root: str) -> list[str]:
    """Directories the program may read: the system, Python, the virtualenv, the package root."""
    roots = ["/usr", sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable)), package_root]
    roots += [p for p in ("/etc/ssl/certs", "/etc/localtime", "/usr/share/zoneinfo") if os.path.exists(p)]
    kept: list[str] = []
    for root in sorted({os.path.realpath(r) for r in roots if r and os.path.exists(r)}, key=len):
        if not any(root == k or root.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(root)
    return kept


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def bwrap_command(command: list[str], run_dir: Path, socket_path: Path | None, package_root: str,
                  env: dict[str, str], seccomp_fd: int | None, extra_read_only: list[str] = (),
                  scratch_bytes: int = 64 * 2**20) -> list[str]:
    """The full ``bwrap … -- command`` line; ``env`` becomes the program's whole environment and
    ``run_dir`` (the program's folder) its only writable place."""
    binary = bwrap_path()
    if binary is None:
        raise FileNotFoundError(BWRAP)
    run = os.path.realpath(run_dir)
    args = [binary, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL", "--hostname", "sandbox", "--clearenv"]
    for link in ("bin", "sbin", "lib", "lib64", "lib32"):
        target = os.path.join("/", link)
        if os.path.islink(target):
            args += ["--symlink", os.readlink(target), target]
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
    scratch = "/var/tmp" if _under(run, "/tmp") else "/tmp"
    if _bwrap_sizes_tmpfs(binary):
        args += ["--size", str(scratch_bytes), "--tmpfs", scratch]
    else:
        scratch = run
    # Parents before children, so a read-only root inside the run directory stays read-only (and the
    # run directory inside a read-only root stays writable).
    mounts = [("--ro-bind", root) for root in _read_only_roots(package_root)]
    mounts += [("--ro-bind", os.path.realpath(p)) for p in extra_read_only if not _under(os.path.realpath(p), run)]
    mounts.append(("--bind", run))
    for kind, path in sorted(mounts, key=lambda mount: mount[1].rstrip("/").count("/")):
        args += [kind, path, path]
    if socket_path is not None:
        args += ["--ro-bind", str(socket_path), SANDBOX_SOCKET]
    args += ["--remount-ro", "/", "--chdir", run]
    for name, value in {**env, "TMPDIR": scratch}.items():
        args += ["--setenv", name, value]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    return [*args, "--", *command]


def seccomp_file() -> int | None:
    """An inheritable file descriptor holding :func:`seccomp_program` (for ``bwrap --seccomp``)."""
    program = seccomp_program()
    if program is None:
        return None
    with tempfile.TemporaryFile() as handle:
        handle.write(program)
        handle.seek(0)
        fd = os.dup(handle.fileno())  # shares the offset (0); outlives the handle and the unlinked file's name
    os.set_inheritable(fd, True)
    return fd
