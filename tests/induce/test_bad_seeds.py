"""Bad seed pages are errors: a missing, empty, binary or non-HTML seed is one ``error:`` line and exit 1.

Before, such a page was dropped (the spec fitted to the others) or read as an empty page ("(none found)"),
and ``induce`` exited 0. The good seed here is a real SWDE page.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SWDE = Path(__file__).resolve().parents[2] / "../shared/data/swde"
GOOD = SWDE / "university/university-usnews/0000.htm"

pytestmark = pytest.mark.skipif(not GOOD.is_file(), reason="SWDE data not present")

BAD_SEEDS = {
    "missing": (None, "no such file"),
    "empty": (b"", "is empty"),
    "blank": (b"  \n\t\n", "is empty"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" * 20, "binary"),
    "csv": (b"name,phone\nAcme University,(512) 471-3434\n", "not an HTML page"),
}


def induce(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", "induce", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("kind", list(BAD_SEEDS))
def test_a_bad_seed_page_is_one_error_line_and_exit_1(tmp_path, kind):
    content, said = BAD_SEEDS[kind]
    name = "seed.csv" if kind == "csv" else "seed.html"
    if content is not None:
        (tmp_path / name).write_bytes(content)
    done = induce(str(GOOD), name, "--field", "phone=the phone number", "-o", "spec.json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
    assert name in lines[0] and said in lines[0]
    assert not (tmp_path / "spec.json").exists()


def test_good_seed_pages_still_make_a_spec(tmp_path):
    pages = [str(SWDE / f"university/university-usnews/000{i}.htm") for i in range(3)]
    done = induce(*pages, "--field", "phone=the phone number", "-o", "spec.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "spec.json").is_file()
