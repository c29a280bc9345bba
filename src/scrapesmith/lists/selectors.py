"""Generalisable CSS selectors for list programs (BardeenAgent paper, section 3.3, heuristic generation).

Several strategies propose selectors (classes, attributes, parent-child paths, positions); candidates
that miss the recorded elements are filtered out, and the viable ones are ranked and joined as ordered
alternatives. Lists are selected from the least common ancestor of the chosen items, so items spread over
several groups (a jobs page with one block per team) are covered by one selector.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from scrapesmith.dom import (
    SelectorError,
    content_children,
    css_selector,
    is_obfuscated_class,
    is_stable_id,
    least_common_ancestor,
    select,
)
from scrapesmith.lists.dsl import alternatives, join_alternatives

SCOPE = ":scope"
MAX_ALTERNATIVES = 2
LINK_ATTRIBUTES = ("itemprop", "role", "rel", "data-testid", "name", "type")


def _css_ident(value: str) -> bool:
    return (
        bool(value)
        and (value[0].isalpha() or value[0] in "_-")
        and all(c.isalnum() or c in "_-" for c in value)
    )


def classes_of(element: etree._Element, hashed: bool = False) -> list[str]:
    names = [name for name in (element.get("class") or "").split() if _css_ident(name)]
    return names if hashed else [name for name in names if not is_obfuscated_class(name)]


def step_css(element: etree._Element, hashed: bool = False, with_classes: bool = True) -> str:
    """One CSS step for ``element``: its tag and (stable, or all when ``hashed``) classes."""
    classes = classes_of(element, hashed) if with_classes else []
    return str(element.tag) + "".join(f".{name}" for name in classes[:2])


def select_in(scope: etree._Element, selector: str) -> list[etree._Element]:
    """Elements ``selector`` picks in ``scope``; ``:scope`` alone is the scope itself; alternatives in order."""
    for alternative in alternatives(selector):
        if alternative == SCOPE:
            return [scope]
        try:
            found = [node for node in select(scope, alternative) if isinstance(node, etree._Element)]
        except SelectorError:
            continue
        if found:
            return found
    return []


def first_in(scope: etree._Element, selector: str) -> etree._Element | None:
    found = select_in(scope, selector)
    return found[0] if found else None


def _path(ancestor: etree._Element, element: etree._Element) -> list[etree._Element]:
    chain = []
    node = element
    while node is not None and node is not ancestor:
        chain.append(node)
        node = node.getparent()
    return chain[::-1]


def _anchor(lca: etree._Element) -> str:
    if lca.tag in ("html", "body"):
        return str(lca.tag)
    element_id = lca.get("id")
    if element_id and is_stable_id(element_id):
        return f"#{element_id}"
    return css_selector(lca)


def list_item_selectors(items: Sequence[etree._Element]) -> str:
    """Ranked selector alternatives (page-absolute) that match every one of ``items``.

    Candidates with no extra matches win; among those, class-based ones come first because they survive
    layout changes, then tag paths from the least common ancestor.
    """
    items = list(items)
    lca = least_common_ancestor(items) if len(items) > 1 else items[0].getparent()
    if lca is None:
        return ""
    if any(item is lca for item in items):
        lca = lca.getparent()
    root = items[0].getroottree().getroot()
    anchor = _anchor(lca)
    candidates = _item_candidates(items, lca, anchor)
    wanted = {id(item) for item in items}
    scored = []
    for order, candidate in enumerate(candidates):
        try:
            found = [node for node in select(root, candidate) if isinstance(node, etree._Element)]
        except SelectorError:
            continue
        found_ids = {id(node) for node in found}
        if wanted <= found_ids:
            scored.append((len(found_ids - wanted), order, candidate))
    scored.sort()
    return join_alternatives([candidate for _extra, _order, candidate in scored[:MAX_ALTERNATIVES]])


def _item_candidates(items: list[etree._Element], lca: etree._Element, anchor: str) -> list[str]:
    paths = [_path(lca, item) for item in items]
    candidates = []
    for hashed in (False, True):
        shared = set(classes_of(items[0], hashed))
        for item in items[1:]:
            shared &= set(classes_of(item, hashed))
        if shared:
            classes = "".join(f".{name}" for name in sorted(shared)[:2])
            candidates += [f"{anchor} {items[0].tag}{classes}", f"{items[0].tag}{classes}"]
    for hashed, with_classes in ((False, True), (True, True), (False, False)):
        rendered = {" > ".join(step_css(step, hashed, with_classes) for step in path) for path in paths}
        candidates.append(", ".join(f"{anchor} > {steps}" for steps in sorted(rendered)))
    return candidates + _with_shared_child(items, candidates)


def _with_shared_child(items: list[etree._Element], candidates: list[str]) -> list[str]:
    """The candidates narrowed to elements holding a child tag every item holds: a table's header row
    (``<th>`` cells only) is a sibling of its record rows (``<td>`` cells) but not one of them."""
    shared = {child.tag for child in items[0] if isinstance(child.tag, str)}
    for item in items[1:]:
        shared &= {child.tag for child in item if isinstance(child.tag, str)}
    return [
        ", ".join(f"{part}:has(> {tag})" for part in candidate.split(", "))
        for tag in sorted(shared)[:2]
        for candidate in candidates
    ]


def field_selectors(target: etree._Element, item: etree._Element, others: Sequence[etree._Element]) -> str:
    """Item-relative (``:scope``) selector alternatives whose first match in ``item`` is ``target``.

    Candidates are ranked by how many of the ``other`` items they find something in, then by order of
    strategy (classes, attributes, child path, positional path, tag).
    """
    if target is item:
        return SCOPE
    scored = []
    for order, candidate in enumerate(_field_candidates(target, item)):
        if first_in(item, candidate) is not target:
            continue
        coverage = sum(1 for other in others if first_in(other, candidate) is not None)
        scored.append((-coverage, order, candidate))
    scored.sort()
    return join_alternatives([candidate for _coverage, _order, candidate in scored[:MAX_ALTERNATIVES]])


def _field_candidates(target: etree._Element, item: etree._Element) -> list[str]:
    tag = str(target.tag)
    candidates = [f"{SCOPE} {tag}.{name}" for name in classes_of(target)]
    candidates += [
        f"{SCOPE} {tag}[{name}={_quote(target.get(name))}]" for name in LINK_ATTRIBUTES if target.get(name)
    ]
    candidates += [
        f"{SCOPE} {tag}.{name}" for name in classes_of(target, hashed=True) if is_obfuscated_class(name)
    ]
    path = _path(item, target)
    candidates.append(f"{SCOPE} > " + " > ".join(step_css(step) for step in path))
    candidates.append(f"{SCOPE} > " + " > ".join(_positioned(step) for step in path))
    candidates.append(f"{SCOPE} {tag}")
    return candidates


def _positioned(element: etree._Element) -> str:
    parent = element.getparent()
    siblings = (
        [child for child in content_children(parent) if child.tag == element.tag]
        if parent is not None
        else []
    )
    if len(siblings) < 2:
        return str(element.tag)
    return f"{element.tag}:nth-of-type({siblings.index(element) + 1})"


def _quote(value: str | None) -> str:
    return '"' + (value or "").replace("\\", "\\\\").replace('"', '\\"') + '"'


def element_selector(element: etree._Element, first: bool = True) -> str:
    """Selector alternatives for one control (a filter, a Next button), the most meaning-bearing first.

    ``rel`` and class-based forms survive layout changes; the exact path is kept as the last resort.
    With ``first`` each alternative must pick ``element`` as its first match (controls that are clicked
    as found); without it, matching it at all is enough (pagination, where replay picks among matches).
    """
    root = element.getroottree().getroot()
    options = []
    if element.get("rel"):
        options.append(f"{element.tag}[rel={_quote(element.get('rel'))}]")
    options += [step_css(element), step_css(element, hashed=True)]
    viable = []
    for option in dict.fromkeys(options):
        found = select_in(root, option) if option != element.tag else []
        if (found[:1] == [element]) if first else (element in found):
            viable.append(option)
    return join_alternatives([*viable[:MAX_ALTERNATIVES], css_selector(element)])


def shape_of(item: etree._Element) -> tuple[str, str]:
    """Items built from the same template share a tag and a class attribute."""
    return str(item.tag), item.get("class") or ""


def multi_shape_field_selector(targets: Sequence[tuple[etree._Element, etree._Element]]) -> str:
    """One selector (ordered alternatives) that finds the right part in items of several shapes.

    ``targets`` pairs a representative item of each shape with the element holding the value in it. Each
    shape contributes its best alternative; alternatives that also match in other shapes' items go last,
    so in every representative the first alternative that matches is the one made for it. Returns "" when
    no order satisfies every representative.
    """
    if len(targets) == 1:
        item, target = targets[0]
        return field_selectors(target, item, [])
    chosen = []
    for item, target in targets:
        options = alternatives(field_selectors(target, item, []))
        if not options:
            return ""
        foreign = [other for other, _ in targets if other is not item]
        chosen.append(min(options, key=lambda option: sum(first_in(o, option) is not None for o in foreign)))
    order = sorted(
        dict.fromkeys(chosen),
        key=lambda option: sum(first_in(item, option) is not None for item, _ in targets),
    )
    joined = join_alternatives(order)
    if all(first_in(item, joined) is target for item, target in targets):
        return joined
    return ""
