"""A package is used through its ``__init__``: imports from another package take names its ``__all__`` exports.

httpx's rule (``__init__.py`` is the public surface, internals live in modules) lets a package move code
between its modules without breaking its callers. The scan reads every ``from scrapesmith.X... import name``
in ``src/`` whose target lies in another top-level package than the importer's, and counts one *past
``__all__``* when the target is a submodule (not itself named in its package's ``__all__`` as a public
module, as each benchmark of ``scrapesmith.bench`` is) or a package whose ``__all__`` lacks the name.

``REMAINING`` is the ratchet for imports past ``__all__`` that are allowed for a while: empty since issue 32
(401 such imports when it began). A new one fails the first test; removing one listed fails the second until
its count here is lowered, so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import scrapesmith

SOURCE = Path(scrapesmith.__file__).parent

REMAINING: dict[str, int] = {}


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
