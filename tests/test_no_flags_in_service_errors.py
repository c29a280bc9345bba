"""Services say what is wrong in their own terms; only the command line names its flags (``cli/hints.py``).

A service does not know which command called it, nor which flags that command has, so an error raised below
``cli/`` that says ``--resume`` or ``--allow-host`` is wrong for every other caller (a benchmark, the demo,
another command with other flags). This scan reads every module outside ``cli/`` and fails on a ``--flag``
in the text given to an exception: after ``raise``, in a call to an exception class, or as the purpose given
to ``require_llm`` (which becomes the error's text).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import scrapesmith

PACKAGE = Path(scrapesmith.__file__).parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
#: calls whose text arguments become an error message
MESSAGE_CALLS = {"require_llm"}


def exception_names() -> set[str]:
    """Builtin exceptions and every class defined in the package (an error class is a called class name)."""
    names = {name for name, value in vars(builtins).items()
             if isinstance(value, type) and issubclass(value, BaseException)}
    for path in PACKAGE.rglob("*.py"):
        names |= {node.name for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)}
    return names


def message_texts(tree: ast.AST, raised: set[str]) -> Iterator[ast.Constant]:
    """The string pieces (f-string parts included) of what is raised or given to an error's constructor."""
    for node in ast.walk(tree):
        target: ast.AST | None = None
        if isinstance(node, ast.Raise):
            target = node.exc
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            target = node if name in raised or name in MESSAGE_CALLS else None
        if target is not None:
            yield from (piece for piece in ast.walk(target)
                        if isinstance(piece, ast.Constant) and isinstance(piece.value, str))


def flags_in_service_errors() -> list[str]:
    raised = exception_names()
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "cli":
            continue
        for piece in message_texts(ast.parse(path.read_text()), raised):
            for flag in FLAG.findall(piece.value):
                found.add(f"{path.relative_to(PACKAGE)}:{piece.lineno}: {flag} in {piece.value!r}")
    return sorted(found)


def test_no_error_outside_the_command_line_names_a_flag() -> None:
    assert flags_in_service_errors() == []


def test_the_scan_sees_a_flag_in_an_f_string_error(tmp_path: Path) -> None:
    tree = ast.parse('def f(d):\n    raise RunStateError(f"{d} is unfinished: pass --resume")\n')
    texts = [piece.value for piece in message_texts(tree, {"RunStateError"})]
    assert any(FLAG.search(text) for text in texts)
