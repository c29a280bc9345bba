"""Fail on a test function that checks nothing: `make test` runs this before pytest.

A test passes this check when its body (nested functions included) holds at least one of:

* an ``assert`` statement whose condition is not a constant (``assert True`` checks nothing);
* ``pytest.raises``, ``pytest.warns``, ``pytest.deprecated_call`` or ``pytest.fail``;
* a call to an *asserting helper*: a function whose name starts with ``assert`` (``assert_every_item_once``,
  ``numpy.testing.assert_allclose``, ``self.assertEqual``) — the one explicit way to mark a helper defined
  outside the tests, or one whose asserting is not visible here — or a function defined in this test
  module, or imported into it from another module under ``tests/``, that passes this check itself.

A test that only shows "it did not raise" must say what it expected instead: the value returned, the rows
written, the state left behind. Usage: ``python tests/check_assertions.py [FOLDER ...]`` (default: the
folder of this file); exit 1 with one line per offending test, ``path:line: name``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PYTEST_CHECKS = frozenset({"raises", "warns", "deprecated_call", "fail"})
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class Module:
    path: Path
    tree: ast.Module
    functions: dict[str, Function] = field(default_factory=dict)
    imported: dict[str, tuple[Path, str]] = field(default_factory=dict)  # local name -> (module file, name)


def called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def is_pytest_check(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr in PYTEST_CHECKS
            and isinstance(func.value, ast.Name) and func.value.id == "pytest")


def direct_check(function: Function) -> bool:
    """An assertion or a pytest check written in the function itself."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assert) and not isinstance(node.test, ast.Constant):
            return True
        if isinstance(node, ast.Call) and (is_pytest_check(node) or (called_name(node) or "").startswith("assert")):
            return True
    return False


def calls(function: Function) -> Iterator[ast.Call]:
    return (node for node in ast.walk(function) if isinstance(node, ast.Call))


def module_file(importer: Path, node: ast.ImportFrom, root: Path) -> Path | None:
    """The file under ``root`` that ``from X import ...`` in ``importer`` names, if any."""
    parts = (node.module or "").split(".")
    if node.level:
        base = importer.parent
        for _ in range(node.level - 1):
            base = base.parent
        candidates = [base.joinpath(*parts)]
    else:  # pytest puts each test folder (rootdir-relative packages) on the path: look beside, then from root
        candidates = [importer.parent.joinpath(*parts), root.joinpath(*parts), root.parent.joinpath(*parts)]
    for candidate in candidates:
        if candidate.with_suffix(".py").is_file():
            return candidate.with_suffix(".py").resolve()
    return None


def load(path: Path, root: Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = Module(path.resolve(), tree)
    for node in ast.walk(tree):
        if isinstance(node, Function):
            module.functions.setdefault(node.name, node)
        elif isinstance(node, ast.ImportFrom):
            source = module_file(path, node, root)
            if source is not None:
                for alias in node.names:
                    module.imported[alias.asname or alias.name] = (source, alias.name)
    return module


class Checker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.modules = {module.path: module for module in (load(p, root) for p in sorted(root.rglob("*.py")))}
        self._asserting: dict[tuple[Path, str], bool] = {}

    def helper(self, module: Module, name: str) -> tuple[Module, Function] | None:
        if name in module.functions:
            return module, module.functions[name]
        if name in module.imported:
            path, original = module.imported[name]
            source = self.modules.get(path)
            if source is not None and original in source.functions:
                return source, source.functions[original]
        return None

    def asserts(self, module: Module, function: Function) -> bool:
        key = (module.path, f"{function.name}:{function.lineno}")
        if key in self._asserting:
            return self._asserting[key]
        self._asserting[key] = False  # a recursive helper proves nothing by calling itself
        found = direct_check(function) or any(
            (helper := self.helper(module, name)) is not None and self.asserts(*helper)
            for name in filter(None, (called_name(call) for call in calls(function)))
        )
        self._asserting[key] = found
        return found

    def offenders(self) -> Iterator[str]:
        for path, module in self.modules.items():
            if not (path.name.startswith("test_") or path.name.endswith("_test.py")):
                continue
            for function in tests_of(module.tree):
                if not self.asserts(module, function):
                    yield f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}:" \
                          f"{function.lineno}: {function.name}"


def tests_of(tree: ast.Module) -> Iterator[Function]:
    """Module-level ``test*`` functions and ``test*`` methods of ``Test*`` classes, as pytest collects them."""
    for node in tree.body:
        if isinstance(node, Function) and node.name.startswith("test"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (item for item in node.body if isinstance(item, Function) and item.name.startswith("test"))


def main(folders: list[str]) -> int:
    roots = [Path(folder).resolve() for folder in folders] or [Path(__file__).resolve().parent]
    found = [line for root in roots for line in Checker(root).offenders()]
    for line in found:
        print(f"{line}: a test with no assertion, no pytest.raises and no asserting helper", file=sys.stderr)
    if found:
        print(f"error: {len(found)} tests check nothing (see tests/check_assertions.py)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
