"""Every source file of the package stays at 400 lines or fewer (issue 49): a file that grows past that is split
along a responsibility it already has, not left to grow.

Source here is code and templates (``.py``, ``.j2``); data shipped with the package (``.json``: fitted weights,
examples) is not code and is not counted. There is no exception: every file, the browser session included
(split into session.py and navigation.py), is held to the limit.
"""

from __future__ import annotations

from pathlib import Path

import scrapesmith

PACKAGE = Path(scrapesmith.__file__).resolve().parent
MAX_LINES = 400
SOURCE_SUFFIXES = (".py", ".j2")


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _sources() -> dict[str, int]:
    return {path.relative_to(PACKAGE).as_posix(): _lines(path) for path in sorted(PACKAGE.rglob("*"))
            if path.is_file() and path.suffix in SOURCE_SUFFIXES}


def test_no_source_file_of_the_package_is_over_400_lines():
    sources = _sources()
    assert len(sources) > 100 and "cli/__init__.py" in sources  # the package itself was read
    offenders = {name: lines for name, lines in sources.items() if lines > MAX_LINES}
    assert not offenders, "over 400 lines (split each along a responsibility it has): " + ", ".join(
        f"{name} {lines}" for name, lines in sorted(offenders.items()))


def test_the_count_is_of_lines_as_an_editor_shows_them(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("a = 1\n\nb = 2\n", encoding="utf-8")
    assert _lines(sample) == 3
