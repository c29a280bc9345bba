"""The check `make test` runs on the suite (tests/check_assertions.py) finds tests that check nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECKER = Path(__file__).resolve().parent / "check_assertions.py"

HELPERS = '''
def checks_the_value(value):
    assert value == 3

def only_computes(value):
    return value + 1
'''

TESTS = '''
import pytest
from helpers import checks_the_value, only_computes
from elsewhere import assert_matches_truth


def local_helper(value):
    checks_the_value(value)

def test_asserts():
    assert only_computes(2) == 3

def test_raises():
    with pytest.raises(ValueError):
        int("x")

def test_fails_explicitly():
    if only_computes(1) != 2:
        pytest.fail("wrong")

def test_imported_asserting_helper():
    checks_the_value(3)

def test_helper_through_a_local_helper():
    local_helper(3)

def test_helper_marked_by_its_name():
    assert_matches_truth([])

class TestGrouped:
    def test_method_asserts(self):
        self.assertEqual(1, 1)

    def test_method_checks_nothing(self):
        only_computes(1)

def test_did_not_raise():
    only_computes(1)

def test_asserts_a_constant():
    only_computes(1)
    assert True

def test_recursion_proves_nothing():
    test_recursion_proves_nothing()
'''


def test_the_check_names_exactly_the_tests_that_check_nothing(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "test_sample.py").write_text(TESTS)
    done = subprocess.run([sys.executable, str(CHECKER), str(tmp_path)], capture_output=True, text=True,
                          check=False, cwd=tmp_path, timeout=60)
    assert done.returncode == 1
    flagged = [line.split(": ")[1] for line in done.stderr.splitlines() if line.startswith("test_sample.py:")]
    assert flagged == ["test_method_checks_nothing", "test_did_not_raise", "test_asserts_a_constant",
                       "test_recursion_proves_nothing"]
    assert done.stderr.splitlines()[-1] == "error: 4 tests check nothing (see tests/check_assertions.py)"


def test_a_suite_where_every_test_checks_something_passes(tmp_path: Path) -> None:
    (tmp_path / "test_fine.py").write_text("def test_one():\n    assert sum([1, 2]) == 3\n")
    done = subprocess.run([sys.executable, str(CHECKER), str(tmp_path)], capture_output=True, text=True,
                          check=False, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
