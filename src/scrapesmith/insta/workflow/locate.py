"""Locators: made from the element an episode acted on, tried in order on the live page when a workflow replays.

:func:`locators_for` turns a recorded step into locators — the element a task phrase points to (a ``read``'s
source), its role and accessible name (with the words of its row when the name repeats), its label, its ``id`` and
``name`` attributes, a robust CSS selector and XPath recorded by the environment (``Step.selectors``). A name or a
row word the task gave becomes ``{parameter}``: the caller's ``name_of`` decides. :func:`resolve` tries them in
order on an observation (its elements and its parsed page): the first that finds exactly one visible element
wins, so a changed id or a reworded button still leaves the others (``Located.by`` says which one found it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scrapesmith.dom import HtmlElement, SelectorError, is_hidden, node_text, normalize_text, select
from scrapesmith.insta.elements import context_of, describe, icon_name
from scrapesmith.insta.reading import find_source, read_source
from scrapesmith.insta.values import satisfies, value_constraints
from scrapesmith.insta.views import Element, Observation, Step
from scrapesmith.insta.workflow.views import LOCATOR_ORDER, Locator

#: Roles whose accessible name is their label (a field), not their text.
FIELD_ROLES = frozenset({"textbox", "select", "checkbox", "radio"})
#: Roles the candidate policy gives to plain elements (script-made, text, icons, suggestions): found in the page.
PLAIN_ROLES = frozenset({"text", "clickable", "icon", "option"})


def _norm(text: str | None) -> str:
    return normalize_text(text or "").casefold()


def element_name(element: Element) -> str:
    """The name a role locator matches: a field's label, else what a user would call the element."""
    return element.label if element.role in ("textbox", "select") else element.name


def locators_for(step: Step, name_of: Callable[[str], str | None],
                 context_of_task: Callable[[str, str], str | None]) -> list[Locator]:
    """The locators of the element ``step`` acted on, best first. ``name_of(text)`` returns ``text`` with the
    task's words as ``{parameter}`` (None: keep it as it is); ``context_of_task(row, name)`` the ``{parameter}``
    a repeated element's row holds besides its name, if any."""
    out: list[Locator] = []
    element, action = step.target, step.action
    if action is not None and action.action_key == "read" and element is not None and element.context:
        out.append(Locator(kind="source", value=name_of(element.context) or element.context))
    if element is not None and action is not None and action.action_key != "read":
        name = element_name(element)
        if name:
            context = context_of_task(element.context, name) if element.context else None
            out.append(Locator(kind="role", role=element.role, value=name_of(name) or name, context=context))
        if element.label and element.role in FIELD_ROLES:
            out.append(Locator(kind="label", value=name_of(element.label) or element.label, role=element.role))
    for kind in ("id", "name", "css", "xpath"):
        value = (step.selectors or {}).get(kind)
        if value:
            out.append(Locator(kind=kind, value=value))  # type: ignore[arg-type]
    return sorted(out, key=lambda locator: LOCATOR_ORDER.index(locator.kind))


@dataclass
class Located:
    """The element a locator found: its snapshot id, its description and which locator found it."""

    id: int
    element: Element
    by: Locator


def _visible(node: HtmlElement) -> bool:
    return not any(is_hidden(n) for n in (node, *node.iterancestors()))


def _stamped(nodes: list[HtmlElement]) -> list[HtmlElement]:
    return [n for n in nodes if isinstance(getattr(n, "tag", None), str) and (n.get("data-ss-id") or "").isdigit()
            and _visible(n)]


def _named_nodes(root: HtmlElement, name: str, role: str) -> list[HtmlElement]:
    """Visible page elements whose own text (an icon: its class or title words) is ``name``, innermost first."""
    wanted = _norm(name)
    found = []
    for node in root.iter():
        if not isinstance(node.tag, str) or node.tag in ("script", "style", "html", "head", "body"):
            continue
        text = node_text(node) if role != "icon" else icon_name(node)
        if _norm(text) == wanted:
            found.append(node)
    kept = set(found)
    return _stamped([n for n in found if not any(child in kept for child in n.iterdescendants())])


def _by_role(locator: Locator, value: str, context: str | None, observation: Observation,
             instruction: Callable[[str], bool] | None = None) -> list[int]:
    wanted = _norm(value)
    ids = [e.id for e in observation.elements if e.role == locator.role and _norm(element_name(e)) == wanted]
    if not ids and observation.tree is not None and (locator.role in PLAIN_ROLES or locator.role not in FIELD_ROLES):
        ids = [int(n.get("data-ss-id")) for n in _named_nodes(observation.tree, value, locator.role or "")]
    if context and len(ids) != 1 and observation.tree is not None:
        nodes = {int(n.get("data-ss-id")): n for n in _stamped(observation.tree.xpath("//*[@data-ss-id]"))}
        rows = {i: _norm(context_of(nodes[i], value)) for i in ids if i in nodes}
        whole = re.compile(rf"(?<!\w){re.escape(_norm(context))}(?!\w)")  # "@et" is not in "@etiam" ...
        ids = [i for i, row in rows.items() if whole.search(row)] or \
            [i for i, row in rows.items() if _norm(context) in row]  # ... unless only text glued to it holds it
    if instruction is not None and len(ids) > 1 and observation.tree is not None:
        # the page prints the task ("Find the email by *Manya*"): a name inside the instruction is no target
        nodes = {int(n.get("data-ss-id")): n for n in _stamped(observation.tree.xpath("//*[@data-ss-id]"))}
        ids = [i for i in ids if i not in nodes or not instruction(context_of(nodes[i], value))] or ids
    return _same_case_first(ids, value, observation)


def _same_case_first(ids: list[int], value: str, observation: Observation) -> list[int]:
    """Of several elements named ``value`` case aside ("Yes" and "yes"), the ones written as the task writes it."""
    if len(ids) < 2:
        return ids
    wanted = normalize_text(value)
    exact = [i for i in ids if (e := describe_id(i, observation)) is not None
             and wanted in (normalize_text(element_name(e)), normalize_text(e.text))]
    return exact or ids


def _by_selector(expression: str, observation: Observation) -> list[int]:
    if observation.tree is None:
        return []
    try:
        return [int(n.get("data-ss-id")) for n in _stamped(select(observation.tree, expression))]
    except SelectorError:
        return []


def _attribute_selector(kind: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{kind}="{escaped}"]'


def _by_source(phrase: str, observation: Observation) -> list[int]:
    source = read_source(f"read {phrase}") or read_source(phrase)
    if source is None or observation.tree is None:
        return []
    node = find_source(observation.tree, source)
    return [int(node.get("data-ss-id"))] if node is not None else []


def find_ids(locator: Locator, value: str, context: str | None, observation: Observation,
             instruction: Callable[[str], bool] | None = None) -> list[int]:
    """The ids of the visible elements ``locator`` (its value and context already bound) finds; ``instruction``
    tells a text that restates the task (an element in it is no target when another one bears the name)."""
    if locator.kind == "role":
        return _by_role(locator, value, context, observation, instruction)
    if locator.kind == "label":
        return [e.id for e in observation.elements if e.role in FIELD_ROLES and _norm(e.label) == _norm(value)]
    if locator.kind in ("id", "name"):
        return _by_selector(_attribute_selector(locator.kind, value), observation)
    if locator.kind == "source":
        return _by_source(value, observation)
    if locator.kind == "satisfies":
        return _meeting(value_constraints(value), locator.role, observation)
    return _by_selector(value, observation)


def _meeting(constraints: list[tuple[str, str]], role: str | None, observation: Observation) -> list[int]:
    """The visible elements whose name meets ``constraints`` (of ``role`` when the observation lists such; else any
    page element whose own text does, innermost first)."""
    if not constraints:
        return []
    ids = [e.id for e in observation.elements if e.role == role and satisfies(element_name(e) or e.text, constraints)]
    if ids or observation.tree is None:
        return ids
    found = [node for node in observation.tree.iter() if isinstance(node.tag, str)
             and node.tag not in ("script", "style", "html", "head", "body") and satisfies(node_text(node), constraints)]
    kept = set(found)
    return [int(n.get("data-ss-id")) for n in _stamped([n for n in found if not any(c in kept for c in n.iterdescendants())])]


def describe_id(ident: int, observation: Observation) -> Element | None:
    """The element ``ident`` as the candidate policy lists it (from the observation, else from the page)."""
    listed = next((e for e in observation.elements if e.id == ident), None)
    if listed is not None or observation.tree is None:
        return listed
    found = observation.tree.xpath(f"//*[@data-ss-id='{ident}']")
    if not found:
        return None
    element = describe(found[0], ident)
    if not element.text:
        element.text = icon_name(found[0])
    return element


def _shows(element: Element, name: str) -> bool:
    """The element bears ``name`` (its name, label, text or value holds it, case and spacing aside)."""
    wanted = _norm(name)
    return any(wanted in _norm(text) for text in (element.name, element.label, element.text, element.value or ""))


def resolve(locators: list[Locator], observation: Observation, bind: Callable[[str], str | None],
            instruction: Callable[[str], bool] | None = None) -> tuple[Located | None, list[str]]:
    """The first locator (in order) that finds exactly one visible element, and why each one before it did not;
    ``bind`` fills a locator's ``{parameter}`` s (None: one is unbound, the locator is skipped). When the task names
    the element (the role locator's name is a parameter), an element a CSS selector or XPath finds must bear that
    name: a selector finds a place, and in another instance the place may hold something else (an id or a name
    attribute names the element itself)."""
    tried: list[str] = []
    named = next((lo for lo in locators if lo.kind == "role" and "{" in lo.value), None)
    must_show = bind(named.value) if named is not None else None
    for locator in locators:
        value = bind(locator.value)
        context = bind(locator.context) if locator.context else None
        if value is None or (locator.context and context is None):
            tried.append(f"{locator.describe()}: a parameter is unbound")
            continue
        ids = list(dict.fromkeys(find_ids(locator, value, context, observation, instruction)))
        if len(ids) == 1:
            element = describe_id(ids[0], observation)
            if element is not None and must_show and locator.kind in ("css", "xpath") \
                    and not _shows(element, must_show):
                tried.append(f"{locator.kind} {value!r}: an element that does not show {must_show!r}")
                continue
            if element is not None:
                if locator.kind in ("role", "label") and not element.name and not element.label:
                    element.text = value
                if locator.kind == "source":
                    element.context = value  # the ordinal the task used: what the judge checks a read by
                if context and context.casefold() not in (element.context or "").casefold():
                    element.context = f"{element.context} {context}".strip()  # found in the row that shows it
                return Located(ids[0], element, locator), tried
        tried.append(f"{locator.kind} {value!r}: {'nothing' if not ids else f'{len(ids)} elements'}")
    return None, tried
