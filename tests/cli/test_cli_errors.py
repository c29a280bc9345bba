"""The command line's exit contract, run as a user runs it (a real subprocess).

Usage errors (a mistyped flag, a missing argument, a bad value) print one line and exit 2; a runtime
failure prints one line and exits 1; Ctrl-C exits 130; ``--version`` prints the version and exits 0.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from scrapesmith import __version__


def scrapesmith(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCRAPESMITH_LLM": "none", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def one_error_line(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: "), lines[0]
    return lines[0]


def test_version_prints_the_package_version():
    done = scrapesmith("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"scrapesmith {__version__}"


@pytest.mark.parametrize(("args", "says"), [
    (("induce", "page.html", "--feild", "x"), "No such option: --feild"),
    (("induce",), "Missing argument"),
    (("run",), "Missing argument 'target'"),
    (("bench", "swde", "--seeds", "three"), "Invalid value for '--seeds'"),
    (("insta", "run", "--sites", "s.txt", "--out", "o", "--workers", "0"), "Invalid value for '--workers'"),
    (("no-such-command",), "No such command"),
    # every option that takes one of a few words is checked one way (cli.options.check_choice)
    (("render", "page.html", "--view", "pdf"), "Invalid value for --view: 'pdf'; use one of"),
    (("render", "page.html", "--render", "sometimes"), "Invalid value for --render"),
    (("induce", "page.html", "--field", "x=y", "--method", "magic"), "Invalid value for --method: 'magic'"),
    (("bench", "swde", "--method", "magic"), "Invalid value for --method"),
    (("lists", "page.html", "--goal", "g", "--columns", "a", "--runtime", "jet"),
     "Invalid value for --runtime: 'jet'; use one of http, browser, auto"),
    (("bench", "miniwob", "--policy", "guess"), "Invalid value for --policy"),
    (("render", "page.html", "--render", "never", "--screenshot", "x.png"), "--screenshot needs the browser"),
])
def test_usage_errors_are_one_line_and_exit_2(args, says):
    done = scrapesmith(*args)
    assert done.returncode == 2
    line = one_error_line(done)
    assert says in line
    assert "Traceback" not in done.stderr


def test_help_shows_each_docstring_paragraph_as_one_flowing_paragraph():
    done = scrapesmith("run", "--help")
    assert done.returncode == 0
    assert "so a killed run continues with --resume" in " ".join(done.stdout.split())
    assert not any(line.strip(" │") in ("a", "to") for line in done.stdout.splitlines())  # no line broken twice


def test_a_runtime_error_is_one_line_and_exits_1(tmp_path):
    done = scrapesmith("run", "spec.json", "missing.html", "-o", "out.csv", cwd=tmp_path)
    assert done.returncode == 1
    assert "spec.json" in one_error_line(done)


def test_ctrl_c_exits_130():
    """A fetch stuck on a server that never answers, interrupted the way a terminal does it."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        env = {**os.environ, "SCRAPESMITH_LLM": "none"}
        process = subprocess.Popen(
            [sys.executable, "-m", "scrapesmith", "fetch", f"http://127.0.0.1:{port}/", "--no-robots",
             "--allow-host", f"127.0.0.1:{port}", "--timeout", "60"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        listener.settimeout(60)
        connection, _ = listener.accept()
        with connection:
            connection.settimeout(60)
            request = b""
            while b"\r\n\r\n" not in request:  # its whole request read: the command now waits for our answer
                chunk = connection.recv(4096)
                assert chunk, "the command hung up before sending its request"
                request += chunk
            assert request.startswith(b"GET / HTTP/1.1\r\n")
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(("args", "status", "line"), [
    (["crawl", "http://127.0.0.1:9/", "--follow", "([", "-o", "u.txt"], 2,
     "error: --follow: '([' is neither a CSS selector nor a regex"),
    (["lists", "page.html", "--goal", "x", "--columns", " , ", "-o", "o.csv"], 2,
     "error: --columns: give at least one column"),
    (["induce", "page.html", "--example", "price"], 2, "error: --example: bad example 'price': use NAME=VALUE"),
    (["run", "program.py"], 1,
     ("error: program.py declares ALLOW_HOSTS 127.0.0.1:8000, which this run does not allow; a program cannot "
     "allow itself hosts: pass --allow-host 127.0.0.1:8000 if you trust them")),
    (["run", "spec.json", "urls.txt", "-o", "out.csv", "--since", "nowhere.run"], 1,
     "error: --since nowhere.run: no run there"),
])
def test_a_service_error_reaches_the_user_as_one_line_naming_the_flag(tmp_path, args, status, line) -> None:
    """The service says what is wrong; the command line names the flag (``cli/hints.py``, usage errors exit 2)."""
    (tmp_path / "page.html").write_text("<html><body><p>one paragraph</p></body></html>")
    (tmp_path / "program.py").write_text('ALLOW_HOSTS = ["127.0.0.1:8000"]\n')
    (tmp_path / "spec.json").write_text('{"fields": []}')
    (tmp_path / "urls.txt").write_text("page.html\n")
    done = scrapesmith(*args, cwd=tmp_path)
    assert done.returncode == status
    assert one_error_line(done).startswith(line)
