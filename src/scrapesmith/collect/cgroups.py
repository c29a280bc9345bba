"""The run's cgroups, held by the parent from outside the sandbox: memory as a whole, tasks, a freezer.

* :class:`MemoryCgroup` — a memory cgroup of the run's own (v1 or v2, under the caller's cgroup) whose limit
  counts everything the sandbox holds in memory: its processes, and the tmpfs pages it writes, which no
  address-space limit sees. Made only where the machine lets this process make one (root, or a delegated
  cgroup); elsewhere the capped tmpfs sizes and the read-only ``/dev`` of :mod:`scrapesmith.collect.isolation`
  are what bound memory outside the address space.
* :class:`RunCgroup` — the run's cgroups: the memory one above, a pids cgroup whose limit counts every task
  (threads included) and holds for root, who ``RLIMIT_NPROC`` does not bind, and a freezer with which the
  parent stops and kills whatever of the run is left, and waits until nothing is, before it takes the
  outputs over (a program that fakes its end, or lives on past bwrap, must not still write then).

The other limits the parent holds (disk quota, bounded output) are in :mod:`scrapesmith.collect.limits`.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import signal
import time
from pathlib import Path

_CGROUP_ROOTS = "/proc/self/mountinfo"
_CGROUP_PREFIX = "scrapesmith-sandbox-"  # then the caller's pid and a serial number
_cgroup_serials = itertools.count()
_OWN_CGROUPS = "/proc/self/cgroup"
# (limit files, OOM-kill counter file, its key): v1 with swap accounting caps memory+swap too; v2 has no swap.
_V1 = (("memory.limit_in_bytes", "memory.memsw.limit_in_bytes"), "memory.oom_control", "oom_kill")
_V2 = (("memory.max", "memory.swap.max"), "memory.events", "oom_kill")


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
        _rmdir_patiently(self.path, patience)


def _rmdir_patiently(path: Path, patience: float) -> None:
    deadline = time.monotonic() + patience
    while True:
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)


class RunCgroup:
    """The run's cgroups, each made where the machine lets this process make it: memory
    (:class:`MemoryCgroup`), pids (``pids.max``: every task, threads included, for root too) and freezer.
    ``procs`` are the files a process writes ``0`` to, to move itself into all of them before it starts
    the sandbox; :meth:`end` stops whatever of the run is left and says whether nothing is."""

    def __init__(self, name: str, memory: MemoryCgroup | None, others: dict[str, tuple[Path, int]]) -> None:
        self.name = name
        self.memory = memory
        self._others = others  # controller -> (directory, cgroup version)
        #: the worst :meth:`end` so far: ``"empty"``, ``"killed"`` or ``"stuck"``
        self.worst_end = "empty"

    @property
    def directories(self) -> list[Path]:
        found = [self.memory.path] if self.memory is not None else []
        return found + [path for path, _version in self._others.values() if path not in found]

    @property
    def procs(self) -> list[Path]:
        return [path / "cgroup.procs" for path in self.directories]

    @property
    def limits_tasks(self) -> bool:
        return "pids" in self._others

    @classmethod
    def create(cls, memory_bytes: int, max_tasks: int) -> RunCgroup | None:
        """The run's cgroups, or ``None`` where not even one can be made."""
        memory = MemoryCgroup.create(memory_bytes)
        name = memory.path.name if memory is not None else f"{_CGROUP_PREFIX}{os.getpid()}-{next(_cgroup_serials)}"
        others: dict[str, tuple[Path, int]] = {}
        for controller, setting in (("pids", ("pids.max", str(max_tasks))), ("freezer", None)):
            own = _own_cgroup(controller)
            if own is None:
                continue
            parent, version = own
            if memory is not None and parent == memory.path.parent:  # one v2 hierarchy holds them all
                others[controller] = (memory.path, version)
            else:
                _remove_orphans(parent)
                child = parent / name
                try:
                    child.mkdir(exist_ok=True)
                except OSError:
                    continue
                others[controller] = (child, version)
            path = others[controller][0]
            needed = setting[0] if setting else ("freezer.state" if version == 1 else "cgroup.freeze")
            try:
                if setting:
                    (path / setting[0]).write_text(setting[1])
                elif not (path / needed).exists():
                    raise OSError(f"no {needed}")
            except OSError:
                del others[controller]
                if path != (memory.path if memory is not None else None):
                    with contextlib.suppress(OSError):
                        path.rmdir()
        if memory is None and not others:
            return None
        return cls(name, memory, others)

    def oom_kills(self) -> int:
        return self.memory.oom_kills() if self.memory is not None else 0

    def pids(self) -> list[int]:
        """The run's processes still there (in any of its cgroups); :class:`OSError` when none can be read."""
        found: set[int] = set()
        failures = 0
        for procs in self.procs:
            try:
                found.update(int(pid) for pid in procs.read_text().split())
            except (OSError, ValueError):
                failures += 1
        if failures and failures == len(self.procs):
            raise OSError(errno.EIO, "the run's cgroups cannot be read")
        return sorted(found)

    def end(self, grace: float = 1.0, patience: float = 5.0) -> str:
        outcome = self._end(grace, patience)
        order = ("empty", "killed", "stuck")
        self.worst_end = max(self.worst_end, outcome, key=order.index)
        return outcome

    def _end(self, grace: float, patience: float) -> str:
        """Make sure nothing of the run is left. ``"empty"`` when its processes left by themselves within
        ``grace`` seconds (a sandbox's end takes a moment), ``"killed"`` when some had to be stopped: frozen
        (none can act while the rest are killed), each SIGKILLed, thawed, waited for; ``"stuck"`` when
        some are still there after ``patience`` seconds more, or the cgroups cannot be read."""
        deadline = time.monotonic() + grace
        while True:
            try:
                if not self.pids():
                    return "empty"
            except OSError:
                return "stuck"
            if time.monotonic() > deadline:
                break
            time.sleep(0.005)
        deadline = time.monotonic() + patience
        frozen = self._freeze(deadline)
        try:
            while True:
                try:
                    left = self.pids()
                except OSError:
                    return "stuck"
                if not left:
                    return "killed"
                for pid in left:
                    self._kill(pid)
                if frozen:
                    self._thaw()
                    frozen = False
                if time.monotonic() > deadline:
                    return "stuck"
                time.sleep(0.01)
        finally:
            if frozen:
                self._thaw()

    def _freeze(self, deadline: float) -> bool:
        freezer = self._others.get("freezer")
        if freezer is None:
            return False
        path, version = freezer
        try:
            if version == 1:
                (path / "freezer.state").write_text("FROZEN")
            else:
                (path / "cgroup.freeze").write_text("1")
        except OSError:
            return False
        limit = min(deadline, time.monotonic() + 1.0)
        while time.monotonic() < limit:
            events = path / ("freezer.state" if version == 1 else "cgroup.events")
            state = read_or_empty(events).strip() if version == 1 else read_or_empty(events)
            if state == "FROZEN" or "frozen 1" in state.splitlines():
                break
            time.sleep(0.005)
        return True

    def _thaw(self) -> None:
        path, version = self._others["freezer"]
        with contextlib.suppress(OSError):
            if version == 1:
                (path / "freezer.state").write_text("THAWED")
            else:
                (path / "cgroup.freeze").write_text("0")

    def _kill(self, pid: int) -> None:
        """SIGKILL ``pid`` if it is still one of the run's: held by a pidfd, then checked to be in the run's
        cgroup, so a pid the system reused for another process is never signalled."""
        try:
            handle = os.pidfd_open(pid)
        except OSError:
            return
        try:
            with contextlib.suppress(OSError):  # the process ended (or left the cgroup) between listing and signal
                if f"/{self.name}" in read_or_empty(Path(f"/proc/{pid}/cgroup")):
                    signal.pidfd_send_signal(handle, signal.SIGKILL)
        finally:
            os.close(handle)

    def remove(self, patience: float = 5.0) -> None:
        """Remove the run's cgroups (asking again while the last killed processes leave)."""
        if self.memory is not None:
            self.memory.remove(patience)
        for path, _version in self._others.values():
            if self.memory is None or path != self.memory.path:
                _rmdir_patiently(path, patience)


def _remove_orphans(parent: Path) -> None:
    """Remove the empty run cgroups whose caller (the pid in their name) is gone."""
    for child in parent.glob(f"{_CGROUP_PREFIX}*"):
        pid = child.name.removeprefix(_CGROUP_PREFIX).partition("-")[0]
        if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            # a caller killed while its run was frozen: thawed, the run's processes die of their pending SIGKILL
            for thaw, value in (("freezer.state", "THAWED"), ("cgroup.freeze", "0")):
                with contextlib.suppress(OSError):
                    (child / thaw).write_text(value)
            with contextlib.suppress(OSError):  # still busy, or another caller's sweep was first
                child.rmdir()


def _own_memory_cgroup() -> tuple[Path, tuple] | None:
    """This process's memory cgroup directory and its layout (v1 or v2), when it can be written to: the first
    the mounts list."""
    found = _writable_cgroups("memory")
    if not found:
        return None
    version, path = found[0]
    return path, _V1 if version == 1 else _V2


def _own_cgroup(controller: str) -> tuple[Path, int] | None:
    """This process's cgroup directory for ``controller`` (``pids``, ``freezer``) and the version of its
    hierarchy, when it can be written to: a v1 hierarchy of that controller first, else cgroup v2."""
    found = _writable_cgroups(controller)
    if not found:
        return None
    version, path = min(found, key=lambda item: item[0])
    return path, version


def _writable_cgroups(controller: str) -> list[tuple[int, Path]]:
    """This process's own cgroup directories for ``controller`` that it can write to, in the order the mounts
    list them, each with its hierarchy's version: a v1 hierarchy of that controller, or cgroup v2 where the
    controller is enabled for children (the freezer is built into v2)."""
    try:
        mounts = Path(_CGROUP_ROOTS).read_text().splitlines()
        own = Path(_OWN_CGROUPS).read_text().splitlines()
    except OSError:
        return []
    v1 = next((line.split(":", 2)[2] for line in own if controller in line.split(":", 2)[1].split(",")), None)
    v2 = next((line.split(":", 2)[2] for line in own if line.startswith("0::")), None)
    found: list[tuple[int, Path]] = []
    for line in mounts:
        fields, _, tail = line.partition(" - ")
        parts, kind = fields.split(), tail.split()
        if len(parts) < 5 or len(kind) < 3:
            continue
        root, mount_point = parts[3], parts[4]
        if kind[0] == "cgroup" and controller in kind[2].split(",") and v1 is not None:
            own_path, version = v1, 1
        elif kind[0] == "cgroup2" and v2 is not None:
            own_path, version = v2, 2
        else:
            continue
        relative = os.path.relpath(own_path, root) if own_path.startswith(root) else None
        if relative is None or relative.startswith(".."):
            continue
        path = Path(mount_point) / relative
        if version == 2 and controller != "freezer" \
                and controller not in read_or_empty(path / "cgroup.subtree_control").split():
            continue
        if os.access(path, os.W_OK):
            found.append((version, path))
    return found


def read_or_empty(path: Path) -> str:
    """The text of ``path``, or "" when it cannot be read (a process or cgroup gone meanwhile)."""
    try:
        return path.read_text()
    except OSError:
        return ""
