"""The model tests' guard (tests/model_guard.py): a native crash in a ``model`` test is a failed test that
shows the crash and what the process wrote to its stderr; the tests before it keep their own outcome."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CRASHING_MODULE = '''
import os, signal
import pytest


@pytest.mark.model
def test_before_the_crash():
    assert 1 + 1 == 2


@pytest.mark.model
def test_skipped_in_the_child():
    pytest.skip("nothing to do")


@pytest.mark.model
def test_native_crash():
    os.write(2, b"parse: error parsing grammar: expecting newline or end\\n")
    os.kill(os.getpid(), signal.SIGSEGV)


@pytest.mark.model
def test_after_the_crash():
    assert True


def test_not_a_model_test_runs_in_the_parent():
    assert os.environ.get("SCRAPESMITH_MODEL_GUARD") is None
'''


def test_a_native_crash_in_a_model_test_is_a_failed_test_with_its_stderr(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "from model_guard import pytest_runtest_logreport, pytest_runtest_protocol  # noqa: F401\n"
        "def pytest_configure(config):\n    config.addinivalue_line('markers', 'model: embedded model')\n")
    (tmp_path / "test_crashing.py").write_text(CRASHING_MODULE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    env.pop("SCRAPESMITH_MODEL_GUARD", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                          str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "PASSED test_crashing.py::test_before_the_crash" in out
    assert "SKIPPED" in out and "nothing to do" in out
    assert "FAILED test_crashing.py::test_native_crash" in out
    assert "FAILED test_crashing.py::test_after_the_crash" in out
    assert "PASSED test_crashing.py::test_not_a_model_test_runs_in_the_parent" in out
    assert "died of SIGSEGV (a native crash)" in out
    assert "parse: error parsing grammar: expecting newline or end" in out


MIXED_MODULE = '''
import pytest


@pytest.fixture(scope="module")
def module_state():
    yield "set up"


def test_in_the_parent_with_module_state(module_state):
    assert module_state == "set up"


@pytest.mark.model
def test_last_in_its_module_runs_in_the_child():
    assert True
'''

NEXT_MODULE = '''
def test_the_next_module_starts_clean():
    assert True
'''


def test_a_model_test_last_in_its_module_leaves_the_next_module_set_up_cleanly(tmp_path: Path) -> None:
    """A module whose last test is a model test: what its earlier tests set up is torn down before the next
    module (make test once failed here with "previous item was not torn down properly")."""
    (tmp_path / "conftest.py").write_text(
        "from model_guard import pytest_runtest_logreport, pytest_runtest_protocol  # noqa: F401\n"
        "def pytest_configure(config):\n    config.addinivalue_line('markers', 'model: embedded model')\n")
    (tmp_path / "test_a_mixed.py").write_text(MIXED_MODULE)
    (tmp_path / "test_b_next.py").write_text(NEXT_MODULE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    env.pop("SCRAPESMITH_MODEL_GUARD", None)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                          str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "PASSED test_b_next.py::test_the_next_module_starts_clean" in out
    assert "not torn down properly" not in out
