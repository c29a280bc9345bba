"""Fixtures shared by every test package.

``demo_web`` is the local demo web (:mod:`scrapesmith.sites`) served once per test session on 127.0.0.1
with a free port, so tests fetch real pages with known ground truth and never leave the machine.
``browser_runtime``/``browser_session`` drive the real Chromium; ``open_report`` loads a run's
``report.html`` (a ``file://`` page, which the guarded runtime refuses on purpose) in Chromium through
Playwright's sync API and records every request, with screenshots kept under ``report-screenshots/`` in
pytest's base temporary directory for a person to look at; ``swde_page``/``swde_dir`` are the real
SWDE pages next to the repository (tests that need them skip when they are absent). ``postgres_server`` is a
throwaway PostgreSQL server (Debian's ``postgresql`` package, which ``make setup`` installs) started once per
session in a temporary directory on 127.0.0.1 and a free port; ``database_url`` gives each test a fresh
database of each kind the sinks write (SQLite, DuckDB, that PostgreSQL).

Under ``CI=true`` (``make test`` sets it) shared data must be there: the run stops at once when
``../shared/data`` lacks SWDE or NEXT-EVAL, and a skip whose reason says data or pages are "not present"
(the wording of every such skip) is reported as a failure, since CI has the data and a skip there would
hide a broken path.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from model_guard import pytest_runtest_logreport, pytest_runtest_protocol  # noqa: F401  (hooks: model tests in a child)

from scrapesmith.sites import DemoServer, serve_sites
from scrapesmith.web.browser.views import CHROMIUM_ARGS, BrowserOptions

# A suite started in the background of a non-interactive shell (`make test &`, nohup) inherits SIGINT
# ignored, and so would every command the Ctrl-C tests interrupt: they would wait forever. Restore Python's
# own handler so the commands they start see SIGINT as a terminal delivers it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

SHARED_DATA = Path(__file__).resolve().parents[1] / "../shared/data"
SWDE = SHARED_DATA / "swde"
SWDE_PAGES = SWDE / "book" / "book-booksamillion"
MISSING_DATA = re.compile(r"\b(data|pages) not present\b")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def pytest_sessionstart(session: pytest.Session) -> None:
    missing = [name for name in ("swde", "next-eval") if not (SHARED_DATA / name).is_dir()]
    if in_ci() and missing:
        pytest.exit(f"error: CI=true and {', '.join(missing)} not found in {SHARED_DATA.resolve()}: "
                    "the tests that need it would only skip (run with CI=false to let them)", returncode=1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Under CI, a skip for missing shared data is a failure (see the module docstring)."""
    outcome = yield
    report = outcome.get_result()
    if not (in_ci() and report.skipped and not hasattr(report, "wasxfail")):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if MISSING_DATA.search(reason):
        report.outcome = "failed"
        report.longrepr = f"CI=true: {reason.removeprefix('Skipped: ')} (a skip here would hide a broken data path)"


@pytest.fixture(scope="session")
def demo_web() -> Iterator[DemoServer]:
    """The running demo web: ``.base_url``, ``.url(path)``, ``.sites`` (truth, urls) and ``.request_log``."""
    with serve_sites(port=0, seed=7) as server:
        yield server


@pytest.fixture
def swde_page() -> bytes:
    if not SWDE_PAGES.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    return (SWDE_PAGES / "0000.htm").read_bytes()


@pytest.fixture
def swde_dir() -> Path:
    if not SWDE_PAGES.is_dir():
        pytest.skip("SWDE data not present at ../shared/data/swde")
    return SWDE.resolve()


@pytest.fixture
def chooser_paths_open() -> Iterator[None]:
    """``--method choose`` asking its model on every path, for tests of the chooser's control flow: the shipped
    gate (``induce/data/choose_gate.json``, fitted by ``bench swde-choose-gate``) may close every path."""
    from scrapesmith.induce import use_gate

    with use_gate(None):
        yield


def _chromium() -> str:
    path = BrowserOptions().executable_path
    if not shutil.which(path):
        pytest.skip(f"Chromium not found at {path}")
    return path


@pytest.fixture(scope="session")
def browser_runtime() -> Iterator[object]:
    """One Chromium for the agent and benchmark tests, allowed to reach 127.0.0.1 only."""
    from scrapesmith.web.browser.policy import BrowserPolicy
    from scrapesmith.web.browser.runtime import BrowserRuntime

    _chromium()
    policy = BrowserPolicy.from_settings(allow_hosts=["127.0.0.1"], delay=0)
    options = BrowserOptions(settle_timeout=1.0, idle_quiet=0.05)
    with BrowserRuntime(options, policy) as runtime:
        yield runtime


@pytest.fixture
def browser_session(browser_runtime) -> Iterator[object]:
    from scrapesmith.web.browser.session import BrowserSession

    with BrowserSession(browser_runtime) as session:
        yield session

@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    path = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        yield browser
        browser.close()


@pytest.fixture
def open_report(chromium):
    """``open_report(path) -> (page, requests)``: the report loaded in a fresh context, every request URL seen."""
    contexts = []

    def load(path: Path):
        context = chromium.new_context()
        contexts.append(context)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(path.resolve().as_uri())
        return page, requests

    yield load
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.getbasetemp() / "report-screenshots"


def _committed_batches(run_dir: Path) -> int:
    manifest = run_dir / "manifest.sqlite"
    if not manifest.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{manifest}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT COUNT(*) FROM batches").fetchone()[0]
    except sqlite3.OperationalError:  # the driver is creating the tables
        return 0


@pytest.fixture
def committed_batches() -> Callable[[Path], int]:
    """How many batches a sharded run in RUN_DIR has committed, read without disturbing its driver."""
    return _committed_batches


def _pg_bin() -> Path | None:
    """The directory of Debian's PostgreSQL server programs (the newest version installed)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]), reverse=True)
    return found[0].parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A running PostgreSQL server, ``postgresql://scrapesmith@127.0.0.1:PORT``; removed with its files at the end.

    PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user the package made.
    """
    bindir = _pg_bin()
    if bindir is None:
        message = "PostgreSQL is not installed (make setup installs Debian's postgresql)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    root = Path(tempfile.mkdtemp(prefix="scrapesmith-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    data = root / "data"
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "scrapesmith", "--auth=trust",
                    "-E", "UTF8", "--no-locale", "--no-sync"], check=True, capture_output=True)
    options = f"-k {root} -c listen_addresses=127.0.0.1 -p {port} -F"
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w",
                    "-t", "60", "-o", options, "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://scrapesmith@127.0.0.1:{port}"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       check=False, capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


_databases = itertools.count(1)


@pytest.fixture(params=["sqlite", "duckdb", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of an empty database of each kind: a SQLite file, a DuckDB file, a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rows.db'}"
    if request.param == "duckdb":
        return f"duckdb:///{tmp_path / 'rows.duckdb'}"
    import sqlalchemy as sa

    server = request.getfixturevalue("postgres_server")
    name = f"test_{next(_databases)}"
    engine = sa.create_engine(f"{server.replace('postgresql', 'postgresql+psycopg')}/postgres",
                              isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.DDL(f"CREATE DATABASE {name}"))
    engine.dispose()
    return f"{server}/{name}"
