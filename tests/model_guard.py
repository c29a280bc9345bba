"""A guard around the embedded-model tests: a native crash of the model is a failed test, not a dead run.

llama.cpp runs inside the test process, so a crash there (a segmentation fault on a grammar it could not
parse, issue 45) used to end the whole test run with no report. Every test marked ``model`` therefore runs
in a child pytest process, one child per test module (the module's model tests together, so they share
one model load). The child writes each test's outcome to a file as soon as it is known; the parent turns
those lines into the test's reports. A test the child never finished — it died of a signal or exited
early — fails with the way the child ended (``SIGSEGV``) and the end of its output, and the tests after it
in that module fail the same way. A test that passes, fails or skips in the child does so here too.

``conftest.py`` imports the two hooks below; in the child (``SCRAPESMITH_MODEL_GUARD`` set) only the
reporting hook acts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from _pytest.reports import TestReport

GUARD = "SCRAPESMITH_MODEL_GUARD"
OUTPUT_TAIL = 6000
DEFAULT_TIMEOUT = 300.0
_results: dict[str, dict[str, list[dict]]] = {}


def guarded(item: pytest.Item) -> bool:
    return item.get_closest_marker("model") is not None and not os.environ.get(GUARD)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    if not guarded(item):
        return None
    module = str(item.path)
    if module not in _results:
        _results[module] = run_in_child([i for i in item.session.items if guarded(i) and str(i.path) == module])
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for report in reports_for(item, _results[module]):
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    # the item ran elsewhere, but what earlier items of its module set up is still on the stack here: tear it
    # down as the normal protocol would, or the next module's first item finds it ("not torn down properly")
    item.session._setupstate.teardown_exact(nextitem)
    return True


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In the child: one JSON line per phase, written (and flushed) as soon as the phase ends."""
    path = os.environ.get(GUARD)
    if not path:
        return
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):
        longrepr = list(longrepr)
    elif longrepr is not None:
        longrepr = str(longrepr)
    line = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome, "longrepr": longrepr,
            "sections": [list(s) for s in report.sections], "duration": report.duration}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def run_in_child(items: list[pytest.Item]) -> dict[str, list[dict]]:
    """Run ``items`` in one child pytest; their phases by node id, and ``""`` → how the child ended."""
    rootdir = items[0].config.rootpath
    handle, name = tempfile.mkstemp(prefix="model-guard-", suffix=".jsonl")
    os.close(handle)
    results_file = Path(name)
    timeout = sum(_timeout(item) for item in items) + 120
    # tee-sys: what the model's native code writes to file descriptor 2 stays in the child's output, which is
    # all that is left of a test when the child dies
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--capture=tee-sys",
               *[i.nodeid for i in items]]
    env = {**os.environ, GUARD: str(results_file)}
    try:
        child = subprocess.run(command, check=False, cwd=rootdir, env=env, capture_output=True, text=True, timeout=timeout)
        returncode, output = child.returncode, child.stdout + child.stderr
    except subprocess.TimeoutExpired as exc:
        returncode = None
        output = _text(exc.stdout) + _text(exc.stderr) + f"\n(the child ran past {timeout:.0f}s and was killed)"
    results: dict[str, list[dict]] = {}
    for line in results_file.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        results.setdefault(entry["nodeid"], []).append(entry)
    results_file.unlink()
    results[""] = [{"ended": ended(returncode), "output": output[-OUTPUT_TAIL:]}]
    return results


def ended(returncode: int | None) -> str:
    if returncode is None:
        return "was killed after its time limit"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"died of {name} (a native crash)"
    return f"exited with status {returncode}"


def reports_for(item: pytest.Item, results: dict[str, list[dict]]) -> list[TestReport]:
    phases = results.get(item.nodeid, [])
    keywords = {name: 1 for name in item.keywords}
    if any(p["when"] == "teardown" for p in phases):
        return [TestReport(item.nodeid, item.location, keywords, p["outcome"], _longrepr(p["longrepr"]), p["when"],
                           [tuple(s) for s in p["sections"]], p["duration"]) for p in phases]
    child = results[""][0]
    message = (f"the model test's process {child['ended']} before this test finished "
               f"(run in a child process by tests/model_guard.py); the end of its output:\n{child['output']}")
    done = [TestReport(item.nodeid, item.location, keywords, p["outcome"], _longrepr(p["longrepr"]), p["when"],
                       [tuple(s) for s in p["sections"]], p["duration"]) for p in phases if p["outcome"] != "passed"]
    if done:  # a phase that already failed or skipped says more than the crash after it
        return done
    return [TestReport(item.nodeid, item.location, keywords, "failed", message, "call")]


def _longrepr(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _timeout(item: pytest.Item) -> float:
    marker = item.get_closest_marker("timeout")
    if marker and marker.args:
        return float(marker.args[0])
    return float(item.config.getini("timeout") or DEFAULT_TIMEOUT)


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
