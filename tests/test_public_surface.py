"""A package is used through its ``__init__``: imports from another package take names its ``__all__`` exports.

httpx's rule (``__init__.py`` is the public surface, internals live in modules) lets a package move code
between its modules without breaking its callers. The scan reads every ``from scrapesmith.X... import name``
in ``src/`` whose target lies in another top-level package than the importer's, and counts one *past
``__all__``* when the target is a submodule (not itself named in its package's ``__all__`` as a public
module, as each benchmark of ``scrapesmith.bench`` is) or a package whose ``__all__`` lacks the name.

``REMAINING`` is the ratchet: the imports past ``__all__`` still there, by the module reached into (issue 32
left those into induce, insta, scale, drift and dom's list modules, and those made from inside them, to the
branches editing them). A new one fails the first test; removing one fails the second until its count here
is lowered, so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import scrapesmith

SOURCE = Path(scrapesmith.__file__).parent

REMAINING = {
    "scrapesmith.bench.swde_mutated": 1, "scrapesmith.collect.heal": 1, "scrapesmith.collect.pages": 1,
    "scrapesmith.collect.program": 1, "scrapesmith.collect.sandbox": 1, "scrapesmith.dom.clean": 1,
    "scrapesmith.dom.list_evidence": 4, "scrapesmith.dom.list_selection": 3, "scrapesmith.dom.markdown": 1,
    "scrapesmith.dom.mutate": 2, "scrapesmith.dom.parse": 7, "scrapesmith.dom.selectors": 9,
    "scrapesmith.dom.tokens": 3, "scrapesmith.dom.visibility": 3, "scrapesmith.drift.service": 2,
    "scrapesmith.drift.views": 2, "scrapesmith.induce.examples": 7, "scrapesmith.induce.execute": 6,
    "scrapesmith.induce.field_evidence": 1, "scrapesmith.induce.heal": 5, "scrapesmith.induce.pages": 1,
    "scrapesmith.induce.profile": 2, "scrapesmith.induce.service": 5, "scrapesmith.induce.views": 9,
    "scrapesmith.insta.agent": 1, "scrapesmith.insta.chooser": 4, "scrapesmith.insta.env": 1,
    "scrapesmith.insta.evidence_judge": 3, "scrapesmith.insta.export": 2, "scrapesmith.insta.judge": 1,
    "scrapesmith.insta.pipeline": 2, "scrapesmith.insta.store": 3, "scrapesmith.insta.views": 1,
    "scrapesmith.io.datasets": 1, "scrapesmith.io.schema": 2, "scrapesmith.lists.heal": 1,
    "scrapesmith.lists.runtime": 1, "scrapesmith.lists.views": 1, "scrapesmith.llm.client": 2,
    "scrapesmith.llm.structured": 7, "scrapesmith.llm.templates": 9, "scrapesmith.llm.views": 16,
    "scrapesmith.scale.manifest": 3, "scrapesmith.scale.runner": 4, "scrapesmith.scale.service": 4,
    "scrapesmith.scale.views": 1, "scrapesmith.web.browser.policy": 1, "scrapesmith.web.browser.runtime": 1,
    "scrapesmith.web.browser.session": 1, "scrapesmith.web.fetch": 4, "scrapesmith.web.files": 1,
    "scrapesmith.web.page": 9, "scrapesmith.web.safety": 3,
}


def module_files() -> dict[str, Path]:
    files = {}
    for path in SOURCE.rglob("*.py"):
        parts = ["scrapesmith", *path.relative_to(SOURCE).with_suffix("").parts]
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def exported(init: Path) -> set[str]:
    """The names in a package's literal ``__all__`` (none when it has no ``__all__``)."""
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def top_package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def past_all(target: str, names: list[str], files: dict[str, Path]) -> bool:
    """Whether ``from target import names`` reaches past the surface its package declares."""
    if target == "scrapesmith":  # the root: its version only
        return False
    if files[target].name == "__init__.py":
        public = exported(files[target])
        return any(name not in public and f"{target}.{name}" not in files for name in names)
    parent, _, leaf = target.rpartition(".")
    return parent != "scrapesmith" and leaf not in exported(files[parent])


def imports_past_all() -> Counter[str]:
    """Imports past ``__all__`` in ``src/``, counted by the module reached into."""
    files = module_files()
    found: Counter[str] = Counter()
    for module, path in files.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in files:
                targets = [(node.module, [alias.name for alias in node.names])]
            elif isinstance(node, ast.Import):
                targets = [(alias.name, []) for alias in node.names if alias.name in files]
            else:
                continue
            for target, names in targets:
                if top_package(target) != top_package(module) and past_all(target, names, files):
                    found[target] += 1
    return found


def test_no_new_import_reaches_past_a_packages_all() -> None:
    grown = {target: count for target, count in imports_past_all().items() if count > REMAINING.get(target, 0)}
    assert not grown, "import these names from the package (export them in its __all__)"


def test_the_remaining_list_shrinks_when_an_import_is_mended() -> None:
    found = imports_past_all()
    mended = {target: (count, found[target]) for target, count in REMAINING.items() if found[target] < count}
    assert not mended, "lower these counts in REMAINING"


def test_the_scan_counts_a_submodule_and_a_name_missing_from_all() -> None:
    files = module_files()
    assert past_all("scrapesmith.web.page", ["Page"], files)
    assert not past_all("scrapesmith.web", ["Page"], files)
    assert past_all("scrapesmith.web", ["_no_such_name"], files)
    assert not past_all("scrapesmith.bench.swde", ["default_swde_dir"], files)  # a public module of bench
