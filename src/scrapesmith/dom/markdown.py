"""InSTA's observation format (the paper's section 3): the page as compact markdown for a browsing agent.

Headings, paragraphs, lists, tables and links read as markdown; everything the agent can act on is
marked ``[id: N]`` and described the way InSTA's prompt examples show it::

    [id: 5] Sales link
    [id: 13] "Name..." (Enter your name text input)
    [id: 67] "blue" (color select from: red, blue, green)
    [id: 21] "I agree to the terms" (checkbox)

In a browser snapshot the description is the live state (see :mod:`scrapesmith.dom.visibility`): the text
typed so far, the option chosen, ``checked``, ``focused``, ``expanded``/``collapsed``.

The ids are the elements' ``data-ss-id`` values (see :mod:`scrapesmith.dom.ids`), the same as in the
simplified DOM and in the browser runtime, so an action's ``target_element_id`` maps back to a node.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scrapesmith.dom.ids import assign_ids, node_id
from scrapesmith.dom.parse import HtmlElement, xml_safe
from scrapesmith.dom.selectors import node_text, normalize_text
from scrapesmith.dom.simplify import SKIPPED_TAGS
from scrapesmith.dom.tokens import estimate_tokens
from scrapesmith.dom.visibility import (
    expanded_state,
    is_checked,
    is_focused,
    is_hidden,
    is_interactive,
    is_selected,
    live_value,
)

HEADINGS = {"h1": "#", "h2": "##", "h3": "###", "h4": "####", "h5": "#####", "h6": "######"}
BLOCKS = frozenset({
    "p", "div", "section", "article", "header", "footer", "nav", "main", "aside", "form", "fieldset",
    "blockquote", "figure", "figcaption", "address", "dl", "dt", "dd", "details", "body", "html", "center",
    "table", "tbody", "thead", "tfoot", "tr", "caption", "li",
})
MAX_OPTIONS = 20
MAX_DEPTH = 150  # deeper markup is flattened (Python recursion would overflow on runaway nesting)


@dataclass
class MarkdownView:
    """The page as markdown; ``nodes`` maps every ``[id: N]`` in ``text`` to its element."""

    text: str
    nodes: dict[int, HtmlElement] = field(default_factory=dict)
    tokens: int = 0
    truncated: bool = False


def to_markdown(
    tree: HtmlElement, max_tokens: int = 2048, *, count_tokens: Callable[[str], int] = estimate_tokens
) -> MarkdownView:
    """Render ``tree`` as InSTA-style markdown within ``max_tokens`` (the end is cut, and says so)."""
    assign_ids(tree)
    writer = _MarkdownWriter()
    writer.block(tree)
    text = writer.finish()
    view = MarkdownView(text, writer.nodes, count_tokens(text))
    return view if view.tokens <= max_tokens else _truncate(view, max_tokens, count_tokens)


def describe_interactive(element: HtmlElement) -> str:
    """One element in InSTA's words, without the id: ``"value" (label kind)`` or ``text kind``."""
    tag = element.tag
    label = accessible_name(element)
    if tag == "select":
        options = [normalize_text(o.text_content()) for o in element.iter("option")]
        chosen = _selected_option(element) or (options[0] if options else "")
        shown = ", ".join(options[:MAX_OPTIONS]) + (f", … {len(options) - MAX_OPTIONS} more" if len(options) > MAX_OPTIONS else "")
        return f'"{chosen}" ({_join(label, "select from:")} {shown}{_states(element)})'
    if tag == "textarea":
        return f'"{normalize_text(live_value(element))}" ({_join(label, "textarea")}{_states(element)})'
    if tag == "input":
        return _describe_input(element, label)
    text = node_text(element) or label or normalize_text(_image_alt(element))
    kind = "link" if tag == "a" or element.get("role") == "link" else "button"
    if tag not in ("a", "button") and element.get("role") not in ("button", "link"):
        kind = element.get("role") or "clickable"
    states = _states(element).lstrip(", ")
    return f"{text} {kind}".strip() + (f" ({states})" if states else "")


def _states(element: HtmlElement) -> str:
    """``, checked, focused, expanded``-style suffix of the live state worth telling an agent."""
    parts = [state for state in (expanded_state(element),) if state]
    if is_focused(element):
        parts.append("focused")
    return "".join(f", {part}" for part in parts)


def _describe_input(element: HtmlElement, label: str) -> str:
    kind = (element.get("type") or "text").lower()
    value = normalize_text(live_value(element) or element.get("placeholder") or "")
    if kind in ("checkbox", "radio"):
        state = ", checked" if is_checked(element) else ""
        return f'"{label or normalize_text(element.get("value") or "")}" ({kind}{state}{_states(element)})'
    if kind in ("submit", "button", "reset", "image"):
        return f"{value or label or kind} button"
    if kind == "range":
        bounds = " ".join(f"{name}: {element.get(name)}" for name in ("min", "max", "step") if element.get(name))
        return f'"{value}" ({_join(label, "range slider")}{" " + bounds if bounds else ""})'
    return f'"{value}" ({_join(label, f"{kind} input")}{_states(element)})'


class _MarkdownWriter:
    """Walks the tree once, emitting markdown blocks; inline content accumulates into the current line."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.line: list[str] = []
        self.nodes: dict[int, HtmlElement] = {}
        self.depth = 0

    def finish(self) -> str:
        self._flush()
        return "\n\n".join(block for block in self.blocks if block.strip())

    def block(self, element: HtmlElement) -> None:
        if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS or is_hidden(element):
            return
        tag = element.tag
        if is_interactive(element) and tag != "option":
            self._interactive(element)
        elif tag in HEADINGS:
            self._flush()
            self.blocks.append(f"{HEADINGS[tag]} {node_text(element)}")
        elif tag in ("ul", "ol"):
            self._list(element, ordered=tag == "ol")
        elif tag == "table" and _is_data_table(element):
            self._table(element)
        elif tag == "label" and _labels_a_control(element):
            for control in element.iter("input", "select", "textarea", "button"):
                self.block(control)
        elif tag == "img":
            alt = normalize_text(element.get("alt"))
            if alt:
                self.line.append(f"{alt} image")
        else:
            self._container(element)

    def _container(self, element: HtmlElement) -> None:
        is_block = element.tag in BLOCKS
        if is_block:
            self._flush()
        if self.depth >= MAX_DEPTH:
            self._flat(element)
            return
        self.depth += 1
        self._text(element.text)
        for child in element:
            self.block(child)
            self._text(child.tail)
        self.depth -= 1
        if is_block or element.tag == "br":
            self._flush()

    def _flat(self, element: HtmlElement) -> None:
        """Pathologically deep markup: its text, then its interactive elements, without recursion."""
        self._text(node_text(element))
        for descendant in element.iterdescendants():
            if isinstance(descendant.tag, str) and is_interactive(descendant) and not is_hidden(descendant):
                self._interactive(descendant)
        self._flush()

    def _interactive(self, element: HtmlElement) -> None:
        ident = node_id(element)
        if ident is not None:
            self.nodes[ident] = element
        self.line.append(f"[id: {ident}] {describe_interactive(element)}")

    def _list(self, element: HtmlElement, ordered: bool) -> None:
        self._flush()
        lines = []
        for number, item in enumerate(element.iterchildren("li"), start=1):
            writer = _MarkdownWriter()
            writer.nodes, writer.depth = self.nodes, self.depth + 1
            writer._container(item)
            blocks = [line for line in writer.finish().split("\n") if line.strip()]
            if blocks:
                lines.append(f"{number}. {blocks[0]}" if ordered else f"- {blocks[0]}")
                lines.extend("  " + line for line in blocks[1:])
        if lines:
            self.blocks.append("\n".join(lines))

    def _table(self, element: HtmlElement) -> None:
        self._flush()
        rows = []
        for row in _rows(element):
            cells = []
            for cell in row.iterchildren("td", "th"):
                writer = _MarkdownWriter()
                writer.nodes, writer.depth = self.nodes, self.depth + 1
                writer._container(cell)
                cells.append(writer.finish().replace("\n\n", " ").replace("|", "\\|"))
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
        if rows:
            width = rows[0].count(" | ") + 1
            rows.insert(1, "|" + " --- |" * width)
            self.blocks.append("\n".join(rows))

    def _text(self, text: str | None) -> None:
        text = normalize_text(text)
        if text:
            self.line.append(text)

    def _flush(self) -> None:
        if self.line:
            self.blocks.append(" ".join(self.line))
            self.line = []


def _rows(table: HtmlElement) -> list[HtmlElement]:
    return table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")


def _is_data_table(table: HtmlElement) -> bool:
    """Tables of values become markdown tables; layout tables (nested blocks, one column) are walked."""
    if table.xpath(".//table | .//ul | .//ol | .//div | .//p | .//h1 | .//h2 | .//h3 | .//form"):
        return False
    return any(len(row.xpath("./td | ./th")) >= 2 for row in _rows(table))


def _labels_a_control(label: HtmlElement) -> bool:
    """A label whose text is already the name of the control it labels (so it is not repeated)."""
    if label.xpath(".//input | .//select | .//textarea"):
        return True
    target = label.get("for")
    return bool(target and xml_safe(target) and label.getroottree().getroot().xpath("//*[@id=$i]", i=target))


def accessible_name(element: HtmlElement) -> str:
    """The accessible name: aria-label, a ``<label for>``, a wrapping label, then name/title/placeholder."""
    if element.get("aria-label"):
        return normalize_text(element.get("aria-label"))
    element_id = element.get("id")
    if element_id and xml_safe(element_id):
        labels = element.getroottree().getroot().xpath("//label[@for=$i]", i=element_id)
        if labels:
            return node_text(labels[0])
    for ancestor in element.iterancestors("label"):
        return _text_without(ancestor, element)
    return normalize_text(element.get("title") or element.get("name") or "")


def _text_without(label: HtmlElement, control: HtmlElement) -> str:
    """A wrapping label's text without the control's own text (a ``<select>``'s options are not its name)."""
    parts = [label.text or ""]
    for node in label.iterdescendants():
        within = any(ancestor is control for ancestor in node.iterancestors())
        if within:
            continue
        if node is not control and isinstance(node.tag, str) and node.tag not in SKIPPED_TAGS:
            parts.append(node.text or "")
        parts.append(node.tail or "")
    return normalize_text(" ".join(parts))


def _selected_option(select: HtmlElement) -> str | None:
    for option in select.iter("option"):
        if is_selected(option):
            return normalize_text(option.text_content())
    return None


def _image_alt(element: HtmlElement) -> str:
    alts = [img.get("alt") for img in element.iter("img") if img.get("alt")]
    return alts[0] if alts else ""


def _join(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def _truncate(view: MarkdownView, max_tokens: int, count_tokens: Callable[[str], int]) -> MarkdownView:
    kept, used = [], 0
    blocks = view.text.split("\n\n")
    for block in blocks:
        cost = count_tokens(block) + 1
        if used + cost > max_tokens - 20:
            break
        kept.append(block)
        used += cost
    kept.append(f"… {len(blocks) - len(kept)} more blocks cut (token budget {max_tokens})")
    text = "\n\n".join(kept)
    nodes = {ident: node for ident, node in view.nodes.items() if f"[id: {ident}]" in text}
    return MarkdownView(text, nodes, count_tokens(text), truncated=True)
