"""Taking over what a sandboxed program wrote, without trusting anything in its folder.

The program controls every entry of its folder: a ``dataset.csv`` may be a symbolic link to a file outside,
a FIFO that blocks whoever opens it, a hard link or a file far larger than any dataset. So the program gets a
fresh folder of its own (:func:`fresh_program_folder`) inside the run directory, and once it has ended, and
no process of it is left to swap an entry, :func:`harvest` moves the regular files it was expected to write
(:data:`scrapesmith.collect.runtime.OUTPUT_FILES`) up into the run directory, as plain readable data files
(mode 0644: a program could make one set-user-ID to the caller, perhaps root), and removes the folder.
Every other entry is refused or left out, each named in one line. The run directory itself, where the parent
writes its records and reports, is never the program's to write.

:func:`open_regular` and :func:`read_regular` are how the parent reads such a file afterwards: opened
without following links or blocking, checked to be a regular file, read up to a size bound, each
failure one line (:class:`UnsafeOutput`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from scrapesmith.collect.runtime import OUTPUT_FILES
from scrapesmith.errors import ScrapesmithError

PROGRAM_FOLDER_PREFIX = ".program-"
OUTPUT_MODE = 0o644
_SHOWN = 5


class UnsafeOutput(ScrapesmithError):
    """A file the program left is not a regular file of its own, or is past its size bound."""


@dataclass
class Harvest:
    """What the parent took over from the program's folder: ``kept`` outputs, ``refused`` entries that
    have an output's name but are no regular file (one line each), and the ``left_out`` other entries."""

    kept: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """One line per refusal, and one for the entries left out (the first few named)."""
        notes = [f"sandbox: not kept: {line}" for line in self.refused]
        if self.left_out:
            shown = ", ".join(repr(name) for name in self.left_out[:_SHOWN])
            more = f" and {len(self.left_out) - _SHOWN} more" if len(self.left_out) > _SHOWN else ""
            notes.append(f"sandbox: {len(self.left_out)} other entries the program wrote were not kept "
                         f"(only its outputs are): {shown}{more}")
        return notes


def fresh_program_folder(run_dir: Path) -> Path:
    """A new, empty folder in ``run_dir`` that the program may write (and nothing else of ``run_dir``)."""
    return Path(tempfile.mkdtemp(prefix=PROGRAM_FOLDER_PREFIX, dir=run_dir))


def harvest(folder: Path, run_dir: Path) -> Harvest:
    """Move the program's regular output files from ``folder`` into ``run_dir`` (replacing the outputs of
    an earlier run there, which must never pass for this run's), then remove ``folder``.

    Call it only once no process of the program is left. Even so, nothing here changes anything through
    a name the program could have swapped: each output is opened without following a link and checked,
    and its mode changed, on the open descriptor; after the move, the name in ``run_dir`` must still be
    that very file (else it is removed and refused).
    """
    outcome = Harvest()
    run_fd = os.open(run_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        for name in OUTPUT_FILES:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                os.unlink(name, dir_fd=run_fd)
        folder_fd = _open_directory(str(folder))
        try:
            for name in sorted(os.listdir(folder_fd)):
                if name not in OUTPUT_FILES:
                    outcome.left_out.append(name)
                    continue
                try:
                    problem = _take_over(name, folder_fd, run_fd)
                except OSError as exc:
                    problem = f"not taken over ({exc.strerror or exc})"
                if problem:
                    outcome.refused.append(f"{name}: {problem}")
                else:
                    outcome.kept.append(name)
        finally:
            os.close(folder_fd)
    finally:
        os.close(run_fd)
    _remove(folder, outcome)
    return outcome


def _open_directory(name: str, dir_fd: int | None = None) -> int:
    """``name`` opened as a directory, never through a link, and made the caller's to list and empty
    (the program may have locked it: mode 000, a mount point it cannot replace); the mode is changed on
    the descriptor, so no link or swap can redirect it."""
    handle = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        if stat.S_IMODE(os.fstat(handle).st_mode) & 0o700 != 0o700:
            _fchmod(handle, 0o700)
        return os.open(f"/proc/self/fd/{handle}", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    finally:
        os.close(handle)


def _fchmod(handle: int, mode: int) -> None:
    """Change the mode of the file ``handle`` (an ``O_PATH`` descriptor) holds: that very inode, whatever
    its name has become. ``/proc/self/fd/N`` names the open file itself, never a link to re-resolve."""
    os.chmod(f"/proc/self/fd/{handle}", mode)


def _take_over(name: str, folder_fd: int, run_fd: int) -> str:
    """Move one output into the run directory as a plain data file; why not ("" when it was moved)."""
    try:  # O_PATH: opens a FIFO without blocking, a file of mode 000 too; O_NOFOLLOW: a link is itself
        handle = os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder_fd)
    except OSError as exc:
        return f"not opened ({exc.strerror})"
    try:
        info = os.fstat(handle)
        problem = _not_own_regular(info)
        if problem:
            return problem
        # a plain data file: never set-user-ID (to the caller, perhaps root), executable or unreadable
        _fchmod(handle, OUTPUT_MODE)
        os.replace(name, name, src_dir_fd=folder_fd, dst_dir_fd=run_fd)
        moved = os.stat(name, dir_fd=run_fd, follow_symlinks=False)
        if (moved.st_dev, moved.st_ino) != (info.st_dev, info.st_ino):  # swapped between the open and the move
            os.unlink(name, dir_fd=run_fd)
            return "replaced while it was taken over"
        return ""
    finally:
        os.close(handle)


def _not_own_regular(info: os.stat_result) -> str:
    """Why a file is not a regular file of the program's own ("" when it is)."""
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link, not a regular file"
    if not stat.S_ISREG(info.st_mode):
        return f"not a regular file (mode {stat.filemode(info.st_mode)})"
    if info.st_nlink != 1:
        return f"a hard link ({info.st_nlink} names), not a file of the program's own"
    return ""


def _remove(folder: Path, outcome: Harvest) -> None:
    """Remove the program's folder without following anything in it.

    Folders the program made unreadable or unwritable are opened one by one relative to their parent's
    descriptor, never through a link (``O_NOFOLLOW``), and unlocked on the descriptor (:func:`_open_directory`);
    a link to a host folder is an entry to unlink, nothing more. ``rmtree`` walks by descriptors and does
    not follow links either."""
    with contextlib.suppress(OSError):
        _unlock_tree(_open_directory(str(folder)))
    shutil.rmtree(folder, ignore_errors=True)
    if os.path.lexists(folder):
        outcome.refused.append(f"{folder.name}: the program's folder could not be removed")


def _unlock_tree(top_fd: int) -> None:
    """Make every real folder under the open folder ``top_fd`` the caller's to empty; closes ``top_fd``.
    Depth first, one descriptor open per level."""
    stack: list[tuple[int, list[str] | None]] = [(top_fd, None)]
    while stack:
        fd, names = stack[-1]
        if names is None:
            try:
                with os.scandir(fd) as listing:
                    names = [entry.name for entry in listing if entry.is_dir(follow_symlinks=False)]
            except OSError:
                names = []
            stack[-1] = (fd, names)
        if not names:
            os.close(fd)
            stack.pop()
            continue
        with contextlib.suppress(OSError):  # not a folder any more (ENOTDIR, ELOOP), or too deep: left to rmtree
            stack.append((_open_directory(names.pop(), fd), None))


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; else :class:`UnsafeOutput`.

    Opened without following a link (``O_NOFOLLOW``) and without blocking (a FIFO opens and is then
    refused), its type checked on the open file, so nothing can be swapped in between.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        reason = "a symbolic link" if os.path.islink(path) else exc.strerror
        raise UnsafeOutput(f"{path}: not read ({reason})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UnsafeOutput(f"{path}: not read (not a regular file, mode {stat.filemode(mode)})")
    return os.fdopen(fd, "rb")


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (:func:`open_regular`) of at most ``limit`` bytes."""
    with open_regular(path) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnsafeOutput(f"{path}: not read (larger than {limit:,} bytes)")
    return data


def count_lines(path: Path) -> int:
    """Non-blank lines of a JSON-lines file (:func:`open_regular`, read line by line); 0 when it is absent."""
    if not os.path.lexists(path):
        return 0
    with open_regular(path) as handle:
        return sum(1 for line in handle if line.strip())
