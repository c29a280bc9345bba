"""A run directory: the shards workers wrote, and a SQLite manifest of what is done.

::

    RUN_DIR/manifest.sqlite     generations, committed batches (counts per status), one record per URL
    RUN_DIR/shards/g0001-b0000042.jsonl   batch 42 of generation 1: what became of each URL, its rows
    RUN_DIR/pages-g0001.warc.gz           the first pages generation 1 read, as read (what ``heal`` mends on)

A worker writes a batch's shard whole (a temporary file, fsynced, renamed); only then does the driver
commit the batch to the manifest, in one transaction (WAL, ``synchronous=FULL``, so it
survives power loss). A batch is therefore either committed with its shard, or not at all: a run killed
at any moment (``kill -9``, Ctrl-C, power loss) redoes the batches it had not committed, each writing its
shard again under the same name, and loses and duplicates nothing.

A *generation* is one pass over a URL list. ``--resume`` continues the last one; ``--since`` starts a new
one in the same directory, so a daily run appends: a URL fetched again replaces its older rows when the
dataset is assembled, a URL answered "304 Not Modified" (or done before and not asked) keeps them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from scrapesmith.errors import ScrapesmithError
from scrapesmith.io import timestamp
from scrapesmith.scale.shards import read_shard
from scrapesmith.scale.views import PAGE_STATUSES, ROW_STATUSES, BatchOutcome, Validators

MANIFEST = "manifest.sqlite"
SHARDS = "shards"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS generations (
    id INTEGER PRIMARY KEY, program_id TEXT NOT NULL, batch_size INTEGER NOT NULL,
    started TEXT NOT NULL, finished TEXT);
CREATE TABLE IF NOT EXISTS batches (
    generation INTEGER NOT NULL, idx INTEGER NOT NULL, digest TEXT NOT NULL, shard TEXT, rows INTEGER NOT NULL,
    worker TEXT, ok INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0, kept INTEGER NOT NULL DEFAULT 0, indexed INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (generation, idx));
CREATE TABLE IF NOT EXISTS pages (
    url TEXT NOT NULL, generation INTEGER NOT NULL, batch INTEGER NOT NULL, position INTEGER NOT NULL,
    status TEXT NOT NULL, rows INTEGER NOT NULL, etag TEXT, last_modified TEXT, error TEXT);
CREATE INDEX IF NOT EXISTS pages_by_url ON pages (url, generation);
CREATE INDEX IF NOT EXISTS pages_by_batch ON pages (generation, batch);
"""


class RunStateError(ScrapesmithError):
    """A run directory that cannot be resumed or continued as asked."""


class UnfinishedRun(RunStateError):
    """A new run asked for in a directory whose last run did not finish (it would be lost)."""


class ResumeMismatch(RunStateError):
    """A resumed run given another program or another URL list than the run it continues."""


class EarlierRunUnusable(RunStateError):
    """The earlier run a new one should build on is missing, unfinished or of another program."""


@dataclass(frozen=True)
class Generation:
    id: int
    program_id: str
    batch_size: int
    finished: bool


def batch_digest(urls: Iterable[str]) -> str:
    """What a batch covered: a resumed run checks that its URL list still cuts into the same batches."""
    return hashlib.blake2b("\n".join(urls).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def run_dir_for(path: Path) -> Path:
    """A dataset's run directory (``books.parquet`` -> ``books.run``); a directory is one already."""
    path = Path(path)
    return path if path.is_dir() or not path.suffix else path.with_suffix(".run")


class RunState:
    """The manifest of one run directory; used by the driver only (workers write shards, never this)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.shard_dir = self.run_dir / SHARDS
        self.shard_dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.run_dir / MANIFEST, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self._upgrade()

    def _upgrade(self) -> None:
        """A manifest from before the counts were kept per batch: its URLs are in ``pages`` already."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(batches)")}
        if "indexed" in columns:
            return
        with self._transaction():
            for status in PAGE_STATUSES:
                self._db.execute(f"ALTER TABLE batches ADD COLUMN {status} INTEGER NOT NULL DEFAULT 0")
                self._db.execute(f"UPDATE batches SET {status} = (SELECT COUNT(*) FROM pages p WHERE p.generation "
                                 f"= batches.generation AND p.batch = batches.idx AND p.status = '{status}')")
            self._db.execute("ALTER TABLE batches ADD COLUMN indexed INTEGER NOT NULL DEFAULT 1")

    @classmethod
    def exists(cls, run_dir: Path) -> bool:
        return (Path(run_dir) / MANIFEST).is_file()

    @classmethod
    def copy(cls, source: Path, target: Path) -> RunState:
        """``target`` as a copy of run directory ``source`` (shards hard-linked where the disk allows)."""
        if target.exists():
            shutil.rmtree(target)
        (target / SHARDS).mkdir(parents=True)
        with sqlite3.connect(source / MANIFEST) as original, sqlite3.connect(target / MANIFEST) as copied:
            original.backup(copied)
        for shard in (source / SHARDS).glob("*.jsonl"):
            try:
                os.link(shard, target / SHARDS / shard.name)
            except OSError:
                shutil.copy2(shard, target / SHARDS / shard.name)
        return cls(target)

    def close(self) -> None:
        self._db.close()

    # -- generations ---------------------------------------------------------------------------------------

    def last_generation(self) -> Generation | None:
        row = self._db.execute("SELECT id, program_id, batch_size, finished FROM generations "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else Generation(row[0], row[1], row[2], row[3] is not None)

    def begin(self, program_id: str, batch_size: int) -> Generation:
        cursor = self._db.execute("INSERT INTO generations (program_id, batch_size, started) VALUES (?, ?, ?)",
                                  (program_id, batch_size, timestamp()))
        return Generation(int(cursor.lastrowid or 0), program_id, batch_size, False)

    def finish(self, generation: int) -> None:
        self._db.execute("UPDATE generations SET finished = ? WHERE id = ?", (timestamp(), generation))

    # -- batches -------------------------------------------------------------------------------------------

    def shard_path(self, generation: int, index: int) -> Path:
        return self.shard_dir / f"g{generation:04d}-b{index:07d}.jsonl"

    def committed(self, generation: int) -> dict[int, str]:
        """The batches of ``generation`` already done, with the digest of the URLs each covered."""
        return dict(self._db.execute("SELECT idx, digest FROM batches WHERE generation = ?", (generation,)))

    def commit(self, generation: int, digest: str, outcome: BatchOutcome) -> None:
        """Record a finished batch (one line, whatever its size): after this, a crash can no longer undo it."""
        shard = Path(outcome.shard).name if outcome.shard else None
        counts = [outcome.counts.get(status, 0) for status in PAGE_STATUSES]
        self._db.execute("INSERT OR REPLACE INTO batches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                         (generation, outcome.index, digest, shard, outcome.rows, outcome.worker, *counts))

    def index_pages(self, before: int | None = None, failed_only: bool = False) -> int:
        """Copy what became of each URL from the shards of committed batches into ``pages``, for batches of
        generations before ``before`` (all when ``None``; with ``failed_only``, batches with a failure).
        Each batch once, in its own transaction; returns the unreadable shard lines met (counted)."""
        query = "SELECT generation, idx, shard FROM batches WHERE indexed = 0 AND shard IS NOT NULL"
        if before is not None:
            query += f" AND generation < {int(before)}"
        if failed_only:
            query += " AND failed > 0"
        torn = 0
        for generation, index, shard in self._db.execute(query).fetchall():
            path = self.shard_dir / shard
            if not path.is_file():
                raise RunStateError(f"{path} is missing: the manifest says batch {index} wrote it")
            _entries, records, unreadable = read_shard(path)
            torn += unreadable
            with self._transaction():
                self._db.execute("DELETE FROM pages WHERE generation = ? AND batch = ?", (generation, index))
                self._db.executemany(
                    "INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.url, generation, index, r.position, r.status, r.rows, r.etag, r.last_modified, r.error)
                     for r in records])
                self._db.execute("UPDATE batches SET indexed = 1 WHERE generation = ? AND idx = ?",
                                 (generation, index))
        return torn

    def generations_with_batches(self) -> int:
        return int(self._db.execute("SELECT COUNT(DISTINCT generation) FROM batches").fetchone()[0])

    def remove_partial_shards(self) -> int:
        """Temporary files of shards a killed worker was writing; they are never read."""
        partial = list(self.shard_dir.glob(".*.partial"))
        for path in partial:
            path.unlink(missing_ok=True)
        return len(partial)

    # -- pages ---------------------------------------------------------------------------------------------

    def previous(self, url: str, before: int) -> tuple[str, Validators] | None:
        """How ``url`` last ended in a generation before ``before``, with the validators it was given (those
        generations' batches indexed first: :meth:`index_pages`)."""
        row = self._db.execute("SELECT status, etag, last_modified FROM pages WHERE url = ? AND generation < ? "
                               "ORDER BY generation DESC, rowid DESC LIMIT 1", (url, before)).fetchone()
        return None if row is None else (row[0], (row[1], row[2]))

    def shards_in_order(self) -> Iterator[tuple[int, int, Path]]:
        """Every committed shard, by generation, then batch: the order of the assembled dataset."""
        rows = self._db.execute("SELECT generation, idx, shard FROM batches WHERE shard IS NOT NULL "
                                "ORDER BY generation, idx").fetchall()
        for generation, index, shard in rows:
            yield generation, index, self.shard_dir / shard

    def superseded(self, generation: int, index: int) -> set[str]:
        """URLs of a batch whose rows a later generation wrote again (the page changed, or failed before);
        the batches indexed first (:meth:`index_pages`) when there is more than one generation."""
        statuses = ", ".join(f"'{status}'" for status in ROW_STATUSES)
        return {url for (url,) in self._db.execute(
            "SELECT DISTINCT p.url FROM pages p JOIN pages q ON q.url = p.url AND q.generation > p.generation "
            f"AND q.status IN ({statuses}) WHERE p.generation = ? AND p.batch = ?", (generation, index))}

    def counts(self, generation: int) -> dict[str, int]:
        sums = self._db.execute(f"SELECT {', '.join(f'SUM({status})' for status in PAGE_STATUSES)} FROM batches "
                                "WHERE generation = ?", (generation,)).fetchone()
        return {status: int(total) for status, total in zip(PAGE_STATUSES, sums, strict=True) if total}

    def failures(self, generation: int, limit: int) -> list[tuple[str, str]]:
        """The first ``limit`` failed URLs of ``generation`` and why, in list order (all are counted in
        :meth:`counts` and kept as error rows in the dataset); read from the shards of batches with a
        failure, only now."""
        self.index_pages(before=generation + 1, failed_only=True)
        return [(url, error or "") for url, error in self._db.execute(
            "SELECT url, error FROM pages WHERE generation = ? AND status = 'failed' ORDER BY batch, position "
            "LIMIT ?", (generation, limit))]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
