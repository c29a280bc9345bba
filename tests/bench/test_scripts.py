"""The scripts in the repository's ``bench/`` folder (figures that BENCHMARKS.md cites) stay runnable: each
one imports what it uses from the package as it is today and explains itself with ``--help``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "bench").glob("*.py"))


def test_the_bench_folder_holds_scripts() -> None:
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_bench_script_starts_and_explains_itself(script: Path) -> None:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
