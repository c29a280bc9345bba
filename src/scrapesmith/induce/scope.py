"""A record scope: one ``id()``-anchored element that holds every field's values, found at induction.

Replaying a spec costs one tree walk per ``//`` XPath, ~4% of a parse each on SWDE pages. When all
fields' values on every seed sit inside one element with an ``id``, the fields can be evaluated inside it
(``descendant-or-self::…`` from that element): ``id()`` is a hash lookup in libxml2, and the walks cover a
part of the page. The scope is used only when it gives exactly the same values on every seed, and a page
without the element falls back to whole-page evaluation, so it changes speed, never results on seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from scrapesmith.induce.candidates import usable_class, xpath_literal
from scrapesmith.induce.execute import XPathSyntaxError, compile_xpath, rebased_xpath, run_actions
from scrapesmith.induce.fragments import value_nodes
from scrapesmith.induce.views import FieldSpec, ScraperSpec


def _id_ancestor(nodes: list[etree._Element]) -> str | None:
    if not nodes:
        return None
    chains = [[node, *node.iterancestors()] for node in nodes]
    for ancestor in chains[0]:
        if all(ancestor in chain for chain in chains[1:]):
            ident = usable_class(ancestor.get("id"))
            if ident and ancestor.tag not in ("html", "body"):
                return f"id({xpath_literal(ident)})"
    return None


def _same_values(field: FieldSpec, root: etree._Element, scope: etree._Element) -> bool:
    try:
        return run_actions(root, field.actions) == run_actions(scope, [rebased_xpath(field) or ""])
    except XPathSyntaxError:
        return False


def find_scope(spec: ScraperSpec, seeds: Sequence[etree._Element]) -> str | None:
    """The scope XPath for ``spec`` on these seeds, or None when no id-anchored element qualifies."""
    fields = [f for f in spec.fields if rebased_xpath(f)]
    if len(fields) < 2 or not seeds:
        return None
    candidates = {_id_ancestor([n for f in fields for n in value_nodes(root, f.actions[0])]) for root in seeds}
    if len(candidates) != 1 or None in candidates:
        return None
    scope = candidates.pop()
    for root in seeds:
        found = compile_xpath(scope)(root)
        if len(found) != 1 or not all(_same_values(f, root, found[0]) for f in fields):
            return None
    return scope


def with_scope(spec: ScraperSpec, seeds: Sequence[etree._Element]) -> ScraperSpec:
    """``spec`` with its scope set when one is found (a copy; the fields are untouched)."""
    return spec.model_copy(update={"scope": find_scope(spec, seeds)})
