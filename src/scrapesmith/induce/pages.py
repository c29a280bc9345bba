"""A scraper spec as a program of a scaled run (:mod:`scrapesmith.scale`): one row per page.

:class:`SpecPages` carries only the spec (picklable, so it travels to pool and Ray workers); each worker
compiles it once, on its first page. The row is exactly what ``run_spec`` writes: the fields, then the
provenance columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scrapesmith.induce.execute import CompiledSpec
from scrapesmith.induce.views import ScraperSpec
from scrapesmith.io import timestamp
from scrapesmith.web import Fetcher, Page


@dataclass
class SpecPages:
    spec: ScraperSpec
    _compiled: CompiledSpec | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def program_id(self) -> str:
        return self.spec.spec_id

    @property
    def columns(self) -> list[str]:
        return [f.name for f in self.spec.fields]

    @property
    def schema(self) -> dict[str, str] | None:
        return None

    def rows(self, page: Page, fetcher: Fetcher) -> list[dict[str, Any]]:
        if self._compiled is None:
            self._compiled = CompiledSpec(self.spec)
        provenance = {"source_url": page.url, "fetched_at": timestamp(page.fetched_at),
                      "program_id": self.spec.spec_id, "error": None}
        return [{**self._compiled.row(page.text), **provenance}]

    def __getstate__(self) -> dict[str, Any]:
        return {"spec": self.spec, "_compiled": None}
