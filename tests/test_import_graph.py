"""No import circle anywhere in ``src/``: the layers contract (``lint-imports``) orders packages, this test
orders modules, so two modules of one package cannot lean on each other either.

An import of one's own package (``scrapesmith.lists.auto`` importing ``scrapesmith.lists``) is not counted:
a package's ``__init__`` re-exports its modules, and that edge points up by construction.
"""

from __future__ import annotations

import grimp

ROOT = "scrapesmith"


def import_edges() -> dict[str, set[str]]:
    graph = grimp.build_graph(ROOT, cache_dir=None)
    return {module: {imported for imported in graph.find_modules_directly_imported_by(module)
                     if imported.startswith(ROOT) and not module.startswith(imported + ".")}
            for module in graph.modules}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle_and_only_it() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(edges) == [["a", "b", "c"]]


def test_no_module_of_scrapesmith_imports_itself_back() -> None:
    edges = import_edges()
    assert len(edges) > 100  # the whole package was read
    assert circles(edges) == []
