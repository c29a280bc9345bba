"""Every Python snippet in README.md and docs/*.md runs as written, and every relative link resolves.

Snippets are self-contained and assert what they promise: they serve the demo web themselves
(``scrapesmith.sites``) or build it in memory, and write only into the test's temporary directory. A
snippet that drives Chromium is skipped when Chromium is missing, like the browser tests.
"""

from __future__ import annotations

import ast
import re
import runpy
import shutil
from pathlib import Path

import pytest

from scrapesmith.web.browser.views import BrowserOptions

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SNIPPET = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def snippets() -> list[pytest.param]:
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in SNIPPET.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            name = f"{doc.relative_to(ROOT)}:{line}"
            found.append(pytest.param(name, match.group(1), id=name))
    return found


def test_every_docs_page_is_linked():
    linked = set()
    for doc in DOCS:
        linked |= {(doc.parent / target).resolve() for target in LINK.findall(doc.read_text(encoding="utf-8"))}
    assert {page.resolve() for page in DOCS[1:]} <= linked, "every docs/ page is linked from another page"


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: str(doc.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path):
    targets = [t for t in LINK.findall(doc.read_text(encoding="utf-8")) if "://" not in t]
    missing = [t for t in targets if not (doc.parent / t).exists()]
    assert not missing, f"{doc.name} links to missing files: {missing}"


@pytest.mark.parametrize(("name", "code"), snippets())
def test_snippet_runs(name: str, code: str, tmp_path, monkeypatch):
    """Runs, and checks its own result: a snippet without an ``assert`` would pass whatever it printed."""
    assert any(isinstance(node, ast.Assert) for node in ast.walk(ast.parse(code))), f"{name} asserts nothing"
    if "scrapesmith.web.browser" in code and not shutil.which(BrowserOptions().executable_path):
        pytest.skip("Chromium not found")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCRAPESMITH_LLM", "none")
    monkeypatch.setenv("SCRAPESMITH_CACHE_DIR", str(tmp_path / "cache"))
    script = tmp_path / "snippet.py"
    script.write_text(f"# {name}\n{code}", encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")


def test_readme_stays_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 175  # 160, and the quick start on saved pages (issue 44)
