"""``scrapesmith render`` takes local files and ``file://`` URLs the way ``fetch`` does (through the same
``RoutingFetcher``/``FileFetcher`` route) and shows them as saved; no browser is needed for them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def scrapesmith(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scrapesmith", *args], capture_output=True, text=True,
                          timeout=120, check=False, cwd=cwd)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    page = tmp_path / "page.html"
    page.write_text("<html><body><h1>Saved title</h1><p>Hello <a href='next.html'>next</a></p></body></html>",
                    encoding="utf-8")
    return page


@pytest.mark.parametrize("form", ["path", "file-url"])
def test_render_shows_a_local_page_as_saved_and_says_so(tmp_path, saved, form):
    source = saved.name if form == "path" else saved.as_uri()
    done = scrapesmith("render", source, "--view", "simplified", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"200 {saved.as_uri()} via file (a local file, shown as saved" in done.stderr
    assert "<h1 #" in done.stdout and "Saved title" in done.stdout and 'href="next.html"' in done.stdout
    markdown = scrapesmith("render", source, cwd=tmp_path)
    assert markdown.returncode == 0 and "# Saved title" in markdown.stdout


def test_a_saved_script_built_page_names_its_signals(tmp_path):
    (tmp_path / "app.html").write_text("<html><body><div id='app'></div><script src='a.js'></script></body></html>")
    done = scrapesmith("render", "app.html", "--render", "auto", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the saved page may need scripts: empty-app-root:#app" in done.stderr


@pytest.mark.parametrize(("args", "says", "status"), [
    (("missing.html",), "missing.html: no such file", 1),
    (("ftp://host/page",), "unsupported URL scheme 'ftp'", 1),
    # usage mistakes exit 2, as every bad option does
    (("page.html", "--screenshot", "shot.png"), "--screenshot needs the browser, which loads http(s) pages only", 2),
    (("page.html", "--render", "sometimes"), "Invalid value for --render: 'sometimes'", 2),
])
def test_local_render_errors_are_one_line(tmp_path, saved, args, says, status):
    done = scrapesmith("render", *args, cwd=tmp_path)
    assert done.returncode == status
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert not (tmp_path / "shot.png").exists()
