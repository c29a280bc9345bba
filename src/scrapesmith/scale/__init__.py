"""Forged programs over millions of pages: resumable, incremental, spread over a local pool or Ray.

A run cuts its URL list into batches; workers (this process, a local process pool, Ray tasks) fetch each
batch under one per-host limit for the whole run and write its rows to a shard; the driver commits each
finished batch to a SQLite manifest, so a killed run resumes where it stopped, and a later run fetches
only what is new or changed. The dataset is assembled from the shards at the end (:func:`assemble`).
``scale`` knows nothing of what a program does: anything keeping to :class:`PageProgram` runs (a scraper
spec through :class:`scrapesmith.induce.pages.SpecPages`, a list program through
:class:`scrapesmith.lists.pages.ListPages`).
"""

from scrapesmith.scale.manifest import (
           EarlierRunUnusable,
           ResumeMismatch,
           RunState,
           RunStateError,
           UnfinishedRun,
           run_dir_for,
)
from scrapesmith.scale.runner import InlineRunner, LocalPoolRunner, RayRunner, Runner, WorkerDied, make_runner
from scrapesmith.scale.service import DEFAULT_BATCH_SIZE, RunPlan, assemble, run_pages
from scrapesmith.scale.views import FetchOptions, PageProgram, PageRecord, RunSummary
from scrapesmith.scale.worker import archived_pages

__all__ = ["DEFAULT_BATCH_SIZE", "EarlierRunUnusable", "FetchOptions", "InlineRunner", "LocalPoolRunner",
           "PageProgram", "PageRecord", "RayRunner", "ResumeMismatch", "RunPlan", "RunState", "RunStateError",
           "RunSummary", "Runner", "UnfinishedRun", "WorkerDied", "archived_pages", "assemble", "make_runner", "run_dir_for",
           "run_pages"]
