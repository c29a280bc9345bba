"""Limits the parent holds from outside the sandbox: memory as a whole, a disk quota, bounded output.

The rlimits :mod:`scrapesmith.collect.guard` sets inside bound one process's address space and each file's
size; they do not bound what a program can park elsewhere. Three things close that:

* :class:`MemoryCgroup` and :class:`RunCgroup` (:mod:`scrapesmith.collect.cgroups`) — the run's memory, pids
  and freezer cgroups, where the machine lets this process make them.
* :class:`DiskQuota` — the bytes and entries in the program's folder, plus files it holds open or mapped
  after deleting them, checked five times a second by the parent, which stops the run past the quota. A
  program writing faster than that can pass the quota by what it writes in a fifth of a second; a
  measurement that fails counts as over the quota.
* :class:`OutputTail` — the last bytes of stdout or stderr, however much the program prints.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import threading
from pathlib import Path
from typing import BinaryIO

from scrapesmith.collect.cgroups import MemoryCgroup, RunCgroup, read_or_empty

__all__ = ["DiskQuota", "MemoryCgroup", "OutputTail", "RunCgroup"]

# C0 and C1 control characters but newline and tab: a program's output must not drive the caller's terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class DiskQuota:
    """What a run has written: the program folder's bytes and entries, and the files the sandbox's
    processes hold open or mapped after unlinking them (which no directory walk sees)."""

    def __init__(self, folder: Path, limit_bytes: int, max_entries: int) -> None:
        self.folder = folder
        self.limit_bytes = limit_bytes
        self.max_entries = max_entries

    def exceeded(self, root_pid: int, pids: list[int] | None = None) -> str | None:
        """Why the run is past its quota (one line), or ``None``. ``pids``: the run's processes (its
        cgroup's), else ``root_pid`` and its descendants. A measurement that fails (the parent out of
        descriptors, say) counts as over the quota: a quota that cannot be read holds nothing."""
        try:
            used, entries = self._folder_usage()
            if entries > self.max_entries:
                return f"more than {self.max_entries} files and folders written"
            used += _unlinked_held_bytes(pids if pids is not None else _descendants(root_pid))
        except OSError as exc:
            return f"the disk use could not be measured ({exc.strerror or exc})"
        if used > self.limit_bytes:
            return f"{used // 2**20} MB written, over the {self.limit_bytes // 2**20} MB quota"
        return None

    def _folder_usage(self) -> tuple[int, int]:
        used, entries, stack = 0, 0, [str(self.folder)]
        while stack and entries <= self.max_entries:
            try:
                listing = os.scandir(stack.pop())
            except FileNotFoundError:  # removed or renamed while walked
                continue
            with listing:
                for entry in listing:
                    entries += 1
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    used += info.st_blocks * 512
                    if stat.S_ISDIR(info.st_mode):
                        stack.append(entry.path)
        return used, entries


_GONE = (errno.ENOENT, errno.ESRCH)  # the process or descriptor went away while it was looked at


def _descendants(root_pid: int) -> list[int]:
    pids, found = [root_pid], []
    while pids:
        pid = pids.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                pids += [int(p) for p in read_or_empty(Path(f"/proc/{pid}/task/{task}/children")).split()]
    return found


def _unlinked_held_bytes(pids: list[int]) -> int:
    """Bytes held by deleted files still open, or mapped (a one-page ``mmap`` keeps a whole file), in
    ``pids`` (each file once)."""
    seen: set[tuple[int, int]] = set()
    total = 0

    def count(path: str, unreadable: tuple[int, ...] = ()) -> None:
        nonlocal total
        try:
            info = os.stat(path)
        except OSError as exc:
            if exc.errno in _GONE or exc.errno in unreadable:
                return
            raise
        if stat.S_ISREG(info.st_mode) and info.st_nlink == 0 and (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512

    for pid in pids:
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
            maps = Path(f"/proc/{pid}/maps").read_text()
        except OSError as exc:
            if exc.errno in _GONE:
                continue
            raise
        for fd in descriptors:
            count(f"/proc/{pid}/fd/{fd}")
        for line in maps.splitlines():
            if line.endswith(" (deleted)"):
                # map_files needs CAP_SYS_ADMIN: a caller that is not root counts descriptors only
                count(f"/proc/{pid}/map_files/{line.split(' ', 1)[0]}", (errno.EPERM, errno.EACCES))
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
