"""Runs inside the sandbox child before the generated program: resource limits and the audit-hook layer.

``python -m scrapesmith.collect.guard program.py`` sets the CPU, memory, file-size and process limits,
then installs a :func:`sys.addaudithook` hook that refuses socket connections to anything but the run's
guard proxy (and, outside bubblewrap, the allowed ``host:port`` pairs), any write outside the run
directory, and starting other processes; then it runs the program as ``__main__``. Every refusal is also
printed to stderr as a ``sandbox-violation:`` line, so the test agent sees it even when the program
swallows the exception.

The hook is the second layer, there for clear messages: a determined program can get past an audit
hook (ctypes, frame tampering), which is why the program runs under bubblewrap
(:mod:`scrapesmith.collect.isolation`), where the operating system holds the line.
"""

from __future__ import annotations

import fcntl
import os
import resource
import runpy
import select
import signal
import socket
import sys
from pathlib import Path

VIOLATION = "sandbox-violation:"
ENV_RUN_DIR = "SCRAPESMITH_RUN_DIR"
ENV_ALLOW = "SCRAPESMITH_SANDBOX_ALLOW"
ENV_LIMITS = "SCRAPESMITH_SANDBOX_LIMITS"
ENV_PROXY = "SCRAPESMITH_SANDBOX_PROXY"
ENV_CALLER = "SCRAPESMITH_SANDBOX_CALLER_FD"
EXIT_VIOLATION = 3
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_PROCESS_EVENTS = frozenset({"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
                             "subprocess.Popen", "pty.spawn"})
_PATH_EVENTS = frozenset({"os.remove", "os.rmdir", "os.mkdir", "os.rename", "os.replace", "os.symlink",
                          "os.link", "os.truncate", "os.chmod", "shutil.rmtree"})


class SandboxViolation(PermissionError):
    """What the guard raises inside the program."""


def _allowed_addresses(entries: list[str]) -> set[tuple[str, int]]:
    allowed = set()
    for entry in entries:
        host, _, port = entry.rpartition(":")
        if not host or not port.isdigit():
            continue
        try:
            infos = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
        except OSError:
            continue
        for info in infos:
            allowed.add((info[4][0], int(port)))
    return allowed


def _refuse(message: str) -> None:
    print(f"{VIOLATION} {message}", file=sys.__stderr__, flush=True)
    raise SandboxViolation(message)


def _is_write(mode: object, flags: object) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _inside(path: object, root: Path) -> bool:
    if isinstance(path, int):
        return True
    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    if text in ("/dev/null", "/dev/stdout", "/dev/stderr"):
        return True
    resolved = Path(os.path.realpath(text))
    return resolved == root or root in resolved.parents


def install(run_dir: Path, allow: list[str], proxy_socket: str = "") -> None:
    """Install the audit hook; from here on only allowed connections and writes under ``run_dir`` pass."""
    root = Path(os.path.realpath(run_dir))
    allowed = _allowed_addresses(allow)

    def hook(event: str, args: tuple) -> None:
        if event == "socket.connect":
            sock, address = args[0], args[1]
            if sock.family == socket.AF_UNIX:
                if not proxy_socket or os.fsdecode(address) != proxy_socket:
                    _refuse(f"connection to the Unix socket {address!r} is not allowed")
            elif sock.family not in (socket.AF_INET, socket.AF_INET6) \
                    or (str(address[0]), int(address[1])) not in allowed:
                _refuse(f"connection to {address!r} is not allowed (allowed: {', '.join(allow) or 'none'})")
        elif event == "open" and _is_write(args[1], args[2]) and not _inside(args[0], root):
            _refuse(f"write to {args[0]!s} outside the run directory {root}")
        elif event in _PATH_EVENTS and not all(_inside(a, root) for a in args[:2] if isinstance(a, (str, bytes))):
            _refuse(f"{event} outside the run directory {root}: {args[:2]!r}")
        elif event == "socket.sendto" and args[0].family != socket.AF_UNIX:
            _refuse(f"sending datagrams to {args[1]!r} is not allowed")
        elif event in _PROCESS_EVENTS:
            _refuse(f"starting processes is not allowed ({event})")

    sys.addaudithook(hook)


def _preload() -> None:
    """Import the runtime's dependencies before the hook: some probe the system once on import
    (``ctypes.util.find_library`` runs ldconfig and writes temp files), which the guard would refuse."""
    import importlib

    for module in ("scrapesmith.collect.runtime", "trio"):
        try:
            importlib.import_module(module)
        except ImportError:
            continue


def apply_limits(spec: str) -> None:
    """``cpu_seconds,memory_mb,max_file_mb[,max_processes]`` as hard limits of this process and its children
    (``max_processes`` 0: leave ``RLIMIT_NPROC`` alone)."""
    if not spec:
        return
    cpu, memory, size, *rest = (int(part) for part in spec.split(","))
    if rest and rest[0] > 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (rest[0], rest[0]))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory * 1024 * 1024, memory * 1024 * 1024))
    resource.setrlimit(resource.RLIMIT_FSIZE, (size * 1024 * 1024, size * 1024 * 1024))


def arm(fd: int, owner: int) -> None:
    """Have the kernel SIGKILL ``owner`` (a process; a process group if negative) the instant the last write
    end of the pipe whose read end is ``fd`` closes: the caller's, when it dies, however it dies."""
    fcntl.fcntl(fd, fcntl.F_SETOWN, owner)
    fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGKILL)
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_ASYNC)


def end_with_caller(fd: int) -> bool:
    """This process dies with the caller from here on (:func:`arm`); False if the caller is gone already.

    bwrap asks to die with its parent only at the end of its setup (``--die-with-parent``), so a caller killed
    during that setup left the sandbox running with nobody to stop it. The caller's child armed the pipe for
    its process group (which bwrap keeps until its setup ends, ``sandbox._dies_with``); the guard takes it
    over before the program runs, and the sandbox ends when the guard does."""
    arm(fd, os.getpid())
    gone = select.poll()
    gone.register(fd, select.POLLIN)  # the caller writes nothing: readable means its end closed
    return not gone.poll(0)


def main() -> int:
    caller = os.environ.get(ENV_CALLER, "")
    if caller and not end_with_caller(int(caller)):
        print("sandbox: the caller is gone; the program is not run", file=sys.stderr)
        return 1
    program = Path(sys.argv[1]).resolve()
    run_dir = Path(os.environ.get(ENV_RUN_DIR, program.parent))
    allow = [entry for entry in os.environ.get(ENV_ALLOW, "").split(",") if entry]
    sys.argv = [str(program), *sys.argv[2:]]
    sys.path.insert(0, str(program.parent))
    _preload()
    apply_limits(os.environ.get(ENV_LIMITS, ""))
    install(run_dir, allow, os.environ.get(ENV_PROXY, "").removeprefix("unix:"))
    try:
        runpy.run_path(str(program), run_name="__main__")
    except SandboxViolation as exc:
        print(f"program stopped: {exc}", file=sys.stderr)
        return EXIT_VIOLATION
    return 0


if __name__ == "__main__":
    sys.exit(main())
