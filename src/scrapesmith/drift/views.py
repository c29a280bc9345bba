"""drift's data: what a forged program's output looked like (``OutputProfile``) and what changed (``Drift``).

A profile is recorded when a program is forged, from its output on the seed pages, and saved inside the
program (a spec, a list program). It is small and readable: per column how many pages were filled, which
value kinds the values had, how long they were, and the seed values themselves (what ``heal`` looks for on
changed pages); per list how many items a start page gave. Programs saved before profiles existed carry
none and run as before, unchecked.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

TEXT = "text"
"""The kind of a value no recogniser claims."""


class ColumnProfile(BaseModel):
    """One column's output on the pages a program was forged on."""

    name: str
    pages: int = Field(description="pages (or items) the column was read on")
    filled: int = Field(description="of those, how many gave a value")
    several: int = Field(default=0, description="of those, how many gave several values (a list of genres)")
    kinds: dict[str, int] = Field(default_factory=dict, description="filled values per value kind ('text': none)")
    lengths: list[int] = Field(default_factory=list, description="characters of each filled value (a sample)")
    numbers: list[float] = Field(default_factory=list, description="the numeric reading of each value that has one")
    cut: list[str] = Field(default_factory=list, description="text the program cut away beside its value on every "
                           "seed page (the template's words, a label): a value that holds it now was not cut out")
    held_cut: int = Field(default=0, description="filled values that hold some of ``cut`` (a replay's profile)")
    seed_values: list[list[str]] = Field(default_factory=list, description="the values on each seed page "
                                         "(one for a single-valued column, none when empty)")

    @property
    def fill_rate(self) -> float:
        return self.filled / self.pages if self.pages else 0.0

    @property
    def forged_several(self) -> tuple[int, int]:
        """(cells with several values, filled cells) on the seed pages, from the kept seed values: what a
        profile saved before ``several`` was counted still knows. Seed pages that read the same values (three
        copies of one book) count once: they are one observation of the site, not three."""
        filled = set(map(tuple, (values for values in self.seed_values if values)))
        return sum(len(values) > 1 for values in filled), len(filled)

    @property
    def forged_fill(self) -> tuple[int, int]:
        """(filled, pages) as forged, with the seed pages that read the same values counted once (when the
        profile kept every seed page's values)."""
        if len(self.seed_values) != self.pages:
            return self.filled, self.pages
        filled = [tuple(values) for values in self.seed_values if values]
        repeats = len(filled) - len(set(filled))
        return self.filled - repeats, self.pages - repeats

    @property
    def main_kind(self) -> str | None:
        """The kind most filled values had, when it is a typed kind (a price, a date …) held by most."""
        if not self.kinds or not self.filled:
            return None
        kind, count = max(self.kinds.items(), key=lambda item: item[1])
        return kind if kind != TEXT and count / self.filled >= KIND_MAJORITY else None


KIND_MAJORITY = 0.8
"""A column has a typed kind when at least this share of its filled values has it."""


class OutputProfile(BaseModel):
    """A program's whole output on its seed pages: its columns and, for a list, items per start page."""

    columns: list[ColumnProfile] = Field(default_factory=list)
    items_per_page: list[int] = Field(default_factory=list, description="list programs: rows per start page")

    def column(self, name: str) -> ColumnProfile | None:
        return next((c for c in self.columns if c.name == name), None)


class Drift(BaseModel):
    """One column (or the list itself, ``column=''``) that no longer looks as it did, with the evidence."""

    column: str
    check: str = Field(description="rows | fill | several | kind | length | cut | items")
    evidence: str

    def __str__(self) -> str:
        return self.evidence


class DriftReport(BaseModel):
    """A replay's output checked against its program's profile."""

    checked: bool = Field(description="false when the program has no profile (saved before profiles)")
    pages: int = 0
    drifts: list[Drift] = Field(default_factory=list)
    now: OutputProfile | None = Field(default=None, description="the replay's own profile, to draw beside")
    was: OutputProfile | None = Field(default=None, description="the forged profile it was checked against: "
                                      "a collection program keeps it nowhere else (it is its dataset's)")

    @property
    def drifted(self) -> bool:
        return bool(self.drifts)

    @property
    def columns(self) -> list[str]:
        return list(dict.fromkeys(d.column for d in self.drifts))
