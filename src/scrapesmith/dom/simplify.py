"""BardeenAgent's simplified DOM (the paper's Figure 2): the page an LLM policy sees.

Unneeded elements and attributes are removed, and every element that remains carries a numeric id
(``<a #3 href="/x">Title</a>``) that the model refers to and that maps back to the node of the original
tree, from which selectors are then generated. Wrapper elements that only wrap a single child are folded
away, invisible content is dropped, and text is whitespace-normalised. Closing tags are left out (the
indentation shows nesting; they cost ~8% of the tokens and say nothing new).

Like the "..." of Figure 2, repetition is shown once: runs of similar records (product cards, also
wrapper-less groups such as ``<a>`` text ``<span>`` text repeated) show their first ``max_similar`` items,
long runs of similar links or options their first five, and a subtree identical to one shown before is
replaced by a pointer to it. Texts longer than 200 characters are shortened (the node keeps the full text
for the program). On the SWDE book pages this gives ~1/5 of the raw HTML's tokens while every
ground-truth value stays visible (``scrapesmith bench dom``).

When the result still exceeds ``max_tokens``, content is elided in an order that keeps the most
information: texts are shortened further, then runs of similar siblings are cut harder, then deep
subtrees are summarised; only as a last resort is the end cut. Every elision is stated in the text
(``… 18 more similar <dl> elided (#264–#480)``), so the model knows something is missing.

Which elements are kept, folded or dropped before any of this is :mod:`scrapesmith.dom.simplify_tree`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from scrapesmith.dom.attributes import Noise, open_tag, shared_query_parameters
from scrapesmith.dom.ids import ID_ATTRIBUTE, assign_ids, node_id
from scrapesmith.dom.parse import HtmlElement
from scrapesmith.dom.selectors import normalize_text
from scrapesmith.dom.simplify_tree import SKIPPED_TAGS, TEXT_CHARS_PER_WEIGHT, Node, build_items
from scrapesmith.dom.tokens import estimate_tokens

__all__ = ["ID_ATTRIBUTE", "SKIPPED_TAGS", "SimplifiedDom", "assign_ids", "simplify"]

LONG_TEXT = 200  # characters of a text shown before "… (+N chars)"; the node keeps the full text
_ID_MARK = re.compile(r" #(\d+)")
LEAVES_KEPT = 5  # of a run of similar leaf elements (links, options), when the run is long
MIN_ELIDED = 3  # eliding fewer items than this saves nothing worth a marker line
MIN_ELIDED_WEIGHT = 20  # records are elided only when that removes this much (small tables stay whole)
MAX_PERIOD = 6  # longest group of mixed siblings recognised as a repeating record
MIN_REPEATS = 5  # a group must repeat this often to be collapsed
DUPLICATE_MIN_LINES = 5  # a repeated subtree at least this long is shown once


@dataclass
class SimplifiedDom:
    """The simplified page: ``text`` for the model, ``nodes`` from the ids in it to the tree's elements."""

    text: str
    nodes: dict[int, HtmlElement] = field(default_factory=dict)
    tokens: int = 0
    elisions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Limits:
    """How hard to elide: text length, items kept per run of similar records / leaves, depth shown."""

    max_text: int | None = None
    records_kept: int | None = None
    leaves_kept: int | None = None
    max_depth: int | None = None


def _ladder(max_similar: int | None) -> tuple[_Limits, ...]:
    """Ever stronger elision, tried in order until the text fits the budget."""
    records = max_similar
    leaves = None if max_similar is None else LEAVES_KEPT
    few = 2 if records is None else min(records, 2)
    return (
        _Limits(max_text=LONG_TEXT, records_kept=records, leaves_kept=leaves),
        _Limits(max_text=120, records_kept=records, leaves_kept=leaves),
        _Limits(max_text=80, records_kept=few, leaves_kept=LEAVES_KEPT),
        _Limits(max_text=60, records_kept=1, leaves_kept=3),
        _Limits(max_text=60, records_kept=1, leaves_kept=3, max_depth=12),
        _Limits(max_text=40, records_kept=1, leaves_kept=2, max_depth=8),
    )


def simplify(
    tree: HtmlElement,
    max_tokens: int | None = 4000,
    max_similar: int | None = 2,
    *,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> SimplifiedDom:
    """Simplify ``tree`` (a whole page or any subtree, e.g. one list item) within ``max_tokens``.

    Ids come from the elements' ``data-ss-id`` attributes; elements without one are numbered in document
    order first (see :func:`assign_ids`), so the same node keeps its id across calls. Like BardeenAgent's
    Figure 2, runs of similar records (siblings with children, e.g. product cards) show their first
    ``max_similar`` items and a marker naming the ids left out; ``None`` shows every record. Pass the
    model's own tokenizer as ``count_tokens`` when it is at hand (the estimate runs ~16% low for Qwen2,
    which splits numbers into single digits).
    """
    assign_ids(tree)
    items = build_items(tree, 0)
    noise = shared_query_parameters(tree)
    simplified = SimplifiedDom(text="")
    for limits in _ladder(max_similar):
        renderer = _Renderer(limits, noise)
        text = "\n".join(renderer.render(items, 0))
        tokens = count_tokens(text)
        simplified = SimplifiedDom(text=text, nodes=renderer.nodes, tokens=tokens, elisions=renderer.elisions)
        if max_tokens is None or tokens <= max_tokens:
            return simplified
    return _cut_to_budget(simplified, max_tokens, count_tokens)


class _Renderer:
    """Renders items as indented pseudo-HTML under one set of :class:`_Limits`, recording elisions."""

    def __init__(self, limits: _Limits, noise: Noise = frozenset()) -> None:
        self.limits = limits
        self.noise = noise
        self.seen: dict[str, int] = {}
        self.nodes: dict[int, HtmlElement] = {}
        self.elisions: list[str] = []

    def render(self, items: list[Node | str], depth: int) -> list[str]:
        lines: list[str] = []
        pad = "  " * depth
        for item, run_skipped in self._collapse_similar(items):
            if run_skipped:
                lines.append(pad + run_skipped)
            elif isinstance(item, str):
                lines.append(pad + self._text(item))
            else:
                lines.extend(self._node(item, depth))
        return lines

    def _node(self, node: Node, depth: int) -> list[str]:
        pad = "  " * depth
        ident = node_id(node.element)
        if ident is not None:
            self.nodes[ident] = node.element
        own_text = node.items[0] if len(node.items) == 1 and isinstance(node.items[0], str) else ""
        head = open_tag(node.element, ident, own_text, self.noise)
        if not node.items:
            return [pad + head]
        if len(node.items) == 1 and isinstance(node.items[0], str):
            return [f"{pad}{head}{self._text(node.items[0])}"]
        if self.limits.max_depth is not None and depth >= self.limits.max_depth:
            self.elisions.append(f"subtree #{ident}")
            return [f"{pad}{head}… deep subtree elided: {_summary(node)}"]
        body = self.render(node.items, depth + 1)
        return [pad + head, *self._unless_duplicate(ident, head, body)]

    def _unless_duplicate(self, ident: int | None, head: str, body: list[str]) -> list[str]:
        """A subtree rendered before (same tags, attributes and texts; other ids) is shown once."""
        if len(body) < DUPLICATE_MIN_LINES or ident is None:
            return body
        key = _ID_MARK.sub("", head + "\n" + "\n".join(line.strip() for line in body))
        original = self.seen.setdefault(key, ident)
        if original == ident:
            return body
        for line in body:
            for match in _ID_MARK.finditer(line):
                self.nodes.pop(int(match.group(1)), None)
        self.elisions.append(f"duplicate of #{original}")
        indent = body[0][: len(body[0]) - len(body[0].lstrip(" "))]
        return [f"{indent}… same content as #{original} elided"]

    def _text(self, text: str) -> str:
        limit = self.limits.max_text
        if limit is None or len(text) <= limit:
            return text
        self.elisions.append("text")
        return f"{text[:limit]}… (+{len(text) - limit} chars)"

    def _collapse_similar(self, items: list[Node | str]):
        """Yield ``(item, None)``, or ``(None, marker)`` in place of similar siblings beyond the limit."""
        signatures = [_item_signature(item) for item in items]
        index = 0
        while index < len(items):
            item = items[index]
            period, repeats = _repeating_pattern(signatures, index) if self.limits.records_kept else (0, 0)
            if repeats:
                keep = self.limits.records_kept * period
                skipped = items[index + keep : index + period * repeats]
                if sum(_item_weight(x) for x in skipped) >= MIN_ELIDED_WEIGHT:
                    yield from ((kept, None) for kept in items[index : index + keep])
                    nodes = [x for x in skipped if isinstance(x, Node)]
                    first, last = node_id(nodes[0].element), node_id(nodes[-1].element)
                    self.elisions.append(f"{len(skipped) // period} similar groups")
                    yield None, (
                        f"… {len(skipped) // period} more similar groups of {period} items elided (#{first}–#{last})"
                    )
                    index += period * repeats
                    continue
            end = index + 1
            keep = None
            if isinstance(item, Node):
                keep = self.limits.records_kept if _is_record(item) else self.limits.leaves_kept
                while end < len(items) and _similar(item, items[end]):
                    end += 1
            if keep is None or not _worth_eliding(item, items[index + keep : end]):
                for kept in items[index:end]:
                    yield kept, None
            else:
                yield from ((kept, None) for kept in items[index : index + keep])
                skipped = items[index + keep : end]
                first, last = node_id(skipped[0].element), node_id(skipped[-1].element)
                self.elisions.append(f"{len(skipped)} similar <{item.element.tag}>")
                yield None, f"… {len(skipped)} more similar <{item.element.tag}> elided (#{first}–#{last})"
            index = end


def _item_weight(item: Node | str) -> int:
    return item.weight if isinstance(item, Node) else len(item) // TEXT_CHARS_PER_WEIGHT


def _item_signature(item: Node | str) -> tuple[str, str]:
    if isinstance(item, str):
        return ("#text", "")
    classes = (item.element.get("class") or "").split()
    return (item.element.tag, classes[0] if classes else "")


def _repeating_pattern(signatures: list[tuple[str, str]], start: int) -> tuple[int, int]:
    """``(period, repeats)`` of a group of 2-6 mixed siblings repeating from ``start`` (``<a>`` text
    ``<span>`` text, …: records without a wrapper element), or ``(0, 0)`` when none repeats enough."""
    if signatures[start][0] == "#text":
        return 0, 0
    for period in range(2, MAX_PERIOD + 1):
        pattern = signatures[start : start + period]
        if len(set(pattern)) < 2:
            continue
        repeats = 1
        while signatures[start + repeats * period : start + (repeats + 1) * period] == pattern:
            repeats += 1
        if repeats >= MIN_REPEATS:
            return period, repeats
    return 0, 0


def _worth_eliding(first: Node, rest: list[Node | str]) -> bool:
    if len(rest) < MIN_ELIDED:
        return False
    if _is_record(first):
        return sum(item.weight for item in rest if isinstance(item, Node)) >= MIN_ELIDED_WEIGHT
    return True


def _is_record(node: Node) -> bool:
    return any(isinstance(item, Node) for item in node.items)


def _similar(first: Node, other: Node | str) -> bool:
    """Same tag, and sharing a class when either has one (``product`` ~ ``product first``)."""
    if not isinstance(other, Node) or other.element.tag != first.element.tag:
        return False
    if _is_record(first) != _is_record(other):
        return False
    classes, other_classes = _classes(first.element), _classes(other.element)
    return bool(classes & other_classes) or not (classes or other_classes)


def _classes(element: HtmlElement) -> set[str]:
    return set((element.get("class") or "").split())


def _summary(node: Node) -> str:
    count = sum(1 for _ in node.element.iter(etree.Element))
    text = normalize_text(node.element.text_content())[:40]
    return f'{count} elements, "{text}…"'


def _cut_to_budget(
    simplified: SimplifiedDom, max_tokens: int, count_tokens: Callable[[str], int]
) -> SimplifiedDom:
    """Last resort: keep whole lines while they fit, and say how many were cut."""
    lines = simplified.text.split("\n")
    kept: list[str] = []
    used = 0
    reserve = 20
    for line in lines:
        cost = count_tokens(line) + 1
        if used + cost > max_tokens - reserve:
            break
        kept.append(line)
        used += cost
    cut = len(lines) - len(kept)
    kept.append(f"… {cut} more lines elided (token budget {max_tokens})")
    text = "\n".join(kept)
    shown = _ids_in(text)
    nodes = {ident: node for ident, node in simplified.nodes.items() if ident in shown}
    return SimplifiedDom(text, nodes, count_tokens(text), [*simplified.elisions, f"{cut} lines"])


def _ids_in(text: str) -> set[int]:
    return {int(match) for match in re.findall(r"<[\w-]+ #(\d+)", text)}
