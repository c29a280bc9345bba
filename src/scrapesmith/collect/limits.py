"""Limits the parent holds from outside the sandbox: memory as a whole, a disk quota, bounded output.

The rlimits :mod:`scrapesmith.collect.guard` sets inside bound one process's address space and each file's
size; they do not bound what a program can park elsewhere. Three things close that:

* :class:`MemoryCgroup` — a memory cgroup of the run's own (v1 or v2, under the caller's cgroup) whose limit
  counts everything the sandbox holds in memory: its processes, and the tmpfs pages it writes, which no
  address-space limit sees. Made only where the machine lets this process make one (root, or a delegated
  cgroup); elsewhere the capped tmpfs sizes and the read-only ``/dev`` of :mod:`scrapesmith.collect.isolation`
  are what bound memory outside the address space.
* :class:`DiskQuota` — the bytes and entries in the program's folder, plus files it holds open after
  deleting them, checked five times a second by the parent, which stops the run past the quota. A
  program writing faster than that can pass the quota by what it writes in a fifth of a second.
* :class:`OutputTail` — the last bytes of stdout or stderr, however much the program prints.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import stat
import threading
import time
from pathlib import Path
from typing import BinaryIO

_CGROUP_ROOTS = "/proc/self/mountinfo"
_CGROUP_PREFIX = "scrapesmith-sandbox-"  # then the caller's pid and a serial number
_cgroup_serials = itertools.count()
_OWN_CGROUPS = "/proc/self/cgroup"
# (limit files, OOM-kill counter file, its key): v1 with swap accounting caps memory+swap too; v2 has no swap.
_V1 = (("memory.limit_in_bytes", "memory.memsw.limit_in_bytes"), "memory.oom_control", "oom_kill")
_V2 = (("memory.max", "memory.swap.max"), "memory.events", "oom_kill")
# C0 and C1 control characters but newline and tab: a program's output must not drive the caller's terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class MemoryCgroup:
    """A fresh memory cgroup capped at ``limit_bytes`` for one sandbox run; :meth:`create` says if the
    machine allows one. ``procs`` is the file a process writes ``0`` to, to move itself in before it
    starts the sandbox (so nothing of the sandbox ever runs outside it)."""

    def __init__(self, path: Path, counter: tuple[str, str]) -> None:
        self.path = path
        self._counter = counter

    @property
    def procs(self) -> Path:
        return self.path / "cgroup.procs"

    @classmethod
    def create(cls, limit_bytes: int) -> MemoryCgroup | None:
        """The run's cgroup under this process's memory cgroup, or ``None`` where none can be made.
        Cgroups left by callers that were killed outright (SIGKILL: no cleanup) are removed first."""
        parent = _own_memory_cgroup()
        if parent is None:
            return None
        path, layout = parent
        limits, counter_file, key = layout
        _remove_orphans(path)
        child = path / f"{_CGROUP_PREFIX}{os.getpid()}-{next(_cgroup_serials)}"
        try:
            child.mkdir()
        except OSError:
            return None
        try:
            written = 0
            for limit_file in limits:
                if (child / limit_file).exists():  # swap accounting may be off
                    (child / limit_file).write_text("0" if limit_file == "memory.swap.max" else str(limit_bytes))
                    written += 1
            if not written or not (child / "cgroup.procs").exists():
                raise OSError("no memory limit file")
        except OSError:
            with contextlib.suppress(OSError):
                child.rmdir()
            return None
        return cls(child, (counter_file, key))

    def oom_kills(self) -> int:
        """How many processes the kernel killed at this cgroup's limit."""
        counter_file, key = self._counter
        with contextlib.suppress(OSError, ValueError):
            for line in (self.path / counter_file).read_text().splitlines():
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
        return 0

    def remove(self, patience: float = 5.0) -> None:
        """Remove the cgroup. The sandbox has ended, but the kernel refuses (EBUSY) until the last of its
        killed processes has left, a moment later: ask again for up to ``patience`` seconds."""
        deadline = time.monotonic() + patience
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.05)


def _remove_orphans(parent: Path) -> None:
    """Remove the empty run cgroups whose caller (the pid in their name) is gone."""
    for child in parent.glob(f"{_CGROUP_PREFIX}*"):
        pid = child.name.removeprefix(_CGROUP_PREFIX).partition("-")[0]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            with contextlib.suppress(OSError):  # still busy, or another caller's sweep was first
                child.rmdir()


def _own_memory_cgroup() -> tuple[Path, tuple] | None:
    """This process's memory cgroup directory and its layout (v1 or v2), when it can be written to."""
    try:
        mounts = Path(_CGROUP_ROOTS).read_text().splitlines()
        own = Path(_OWN_CGROUPS).read_text().splitlines()
    except OSError:
        return None
    v1 = next((line.split(":", 2)[2] for line in own if "memory" in line.split(":", 2)[1].split(",")), None)
    v2 = next((line.split(":", 2)[2] for line in own if line.startswith("0::")), None)
    for line in mounts:
        fields, _, tail = line.partition(" - ")
        parts, kind = fields.split(), tail.split()
        if len(parts) < 5 or len(kind) < 3:
            continue
        root, mount_point = parts[3], parts[4]
        if kind[0] == "cgroup" and "memory" in kind[2].split(",") and v1 is not None:
            own_path, layout = v1, _V1
        elif kind[0] == "cgroup2" and v2 is not None:
            own_path, layout = v2, _V2
        else:
            continue
        relative = os.path.relpath(own_path, root) if own_path.startswith(root) else None
        if relative is None or relative.startswith(".."):
            continue
        path = Path(mount_point) / relative
        if layout is _V2 and "memory" not in _read(path / "cgroup.subtree_control").split():
            continue
        if os.access(path, os.W_OK):
            return path, layout
    return None


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


class DiskQuota:
    """What a run has written: the program folder's bytes and entries, and the files the sandbox's
    processes hold open after unlinking them (which no directory walk sees)."""

    def __init__(self, folder: Path, limit_bytes: int, max_entries: int) -> None:
        self.folder = folder
        self.limit_bytes = limit_bytes
        self.max_entries = max_entries

    def exceeded(self, root_pid: int) -> str | None:
        """Why the run is past its quota (one line), or ``None``."""
        used, entries = self._folder_usage()
        if entries > self.max_entries:
            return f"more than {self.max_entries} files and folders written"
        used += _unlinked_open_bytes(root_pid)
        if used > self.limit_bytes:
            return f"{used // 2**20} MB written, over the {self.limit_bytes // 2**20} MB quota"
        return None

    def _folder_usage(self) -> tuple[int, int]:
        used, entries, stack = 0, 0, [str(self.folder)]
        while stack and entries <= self.max_entries:
            with contextlib.suppress(OSError), os.scandir(stack.pop()) as listing:
                for entry in listing:
                    entries += 1
                    with contextlib.suppress(OSError):
                        info = entry.stat(follow_symlinks=False)
                        used += info.st_blocks * 512
                        if stat.S_ISDIR(info.st_mode):
                            stack.append(entry.path)
        return used, entries


def _unlinked_open_bytes(root_pid: int) -> int:
    """Bytes held by deleted files still open in ``root_pid`` or its descendants (each file once)."""
    seen: set[tuple[int, int]] = set()
    total, pids = 0, [root_pid]
    while pids:
        pid = pids.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                pids += [int(p) for p in _read(Path(f"/proc/{pid}/task/{task}/children")).split()]
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    info = os.stat(f"/proc/{pid}/fd/{fd}")
                    if stat.S_ISREG(info.st_mode) and info.st_nlink == 0 and (info.st_dev, info.st_ino) not in seen:
                        seen.add((info.st_dev, info.st_ino))
                        total += info.st_blocks * 512
    return total


class OutputTail:
    """Reads a pipe to its end on a thread, keeping only the last ``limit`` bytes and counting the rest."""

    def __init__(self, pipe: BinaryIO, limit: int) -> None:
        self.limit = limit
        self.dropped = 0
        self._kept = bytearray()
        self._pipe = pipe
        self._thread = threading.Thread(target=self._drain, name="sandbox-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        fd = self._pipe.fileno()
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under us: the tail so far stands
            while chunk := os.read(fd, 65536):
                self._kept += chunk
                excess = len(self._kept) - self.limit
                if excess > 0:
                    del self._kept[:excess]
                    self.dropped += excess

    def text(self, timeout: float = 10.0) -> str:
        """The kept tail as text (undecodable bytes and control characters replaced), after the pipe ends;
        a note says how much was not kept."""
        self._thread.join(timeout)
        self._pipe.close()
        text = _CONTROL.sub("\N{REPLACEMENT CHARACTER}", self._kept.decode("utf-8", "replace"))
        if self.dropped:
            return f"[{self.dropped} earlier bytes of output not kept]\n" + text
        return text
