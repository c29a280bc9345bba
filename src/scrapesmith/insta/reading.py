"""Read, then act: the value a task points to on the page ("the text from the 2nd text area", "the 3rd word in
the paragraph") is read by a ``read`` step, and the next steps type it (``insta.fields.read_value_candidates``).

The task points by a read verb (copy, read, find, take, get, remember, note) and a *source*: an element kind
("text area", "paragraph", "text field") with an ordinal ("2nd", "last"; none: the first), optionally a word
of it by ordinal ("the 3rd word in the paragraph"). The source is looked up among the visible elements of that
kind in page order, leaving out the page's own copy of the task. The environment reads the live value (a
field's value, else the element's text; a word: split at whitespace, punctuation at its ends dropped), and the
episode records it in the step's ``action_kwargs["value"]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scrapesmith.dom import HtmlElement, is_hidden, node_text
from scrapesmith.insta.elements import describe
from scrapesmith.insta.views import Action, ActionCandidate, Element, Step

_READ_VERB = re.compile(r"\b(?:copy|read|find|take|get|remember|note)\b", re.IGNORECASE)
_ORDINAL = r"(?:(\d+)(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last))"
ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                 "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
#: Element kinds a task names as a source, and the tags that kind covers.
SOURCE_KINDS = {"text area": ("textarea",), "textarea": ("textarea",), "paragraph": ("p",),
                "text field": ("input",), "text input": ("input",), "text box": ("input", "textarea"),
                "textbox": ("input", "textarea"), "input": ("input",), "field": ("input",)}
_KIND = "|".join(sorted((re.escape(kind) for kind in SOURCE_KINDS), key=len, reverse=True))
_WORD_OF = re.compile(rf"\b(?:the\s+)?{_ORDINAL}\s+word\s+(?:in|of|from)\s+the\s+(?:{_ORDINAL}\s+)?({_KIND})\b",
                      re.IGNORECASE)
_SOURCE = re.compile(rf"\b(?:from|in|of)\s+the\s+(?:{_ORDINAL}\s+)?({_KIND})\b", re.IGNORECASE)
TEXT_TYPES = frozenset({"", "text", "search", "email", "tel", "url"})


@dataclass(frozen=True)
class Source:
    """Where the task's value is: the ``ordinal``-th element of ``tags`` (-1: the last); ``word``: one of its
    words by ordinal, else its whole value; ``phrase``: the task's words for it."""

    tags: tuple[str, ...]
    ordinal: int
    word: int | None
    phrase: str


def _ordinal(number: str | None, word: str | None) -> int | None:
    if number:
        return int(number)
    return ORDINAL_WORDS.get(word.casefold()) if word else None


def read_source(task: str) -> Source | None:
    """The source the task reads from, or None when it reads nothing off the page."""
    if not _READ_VERB.search(task):
        return None
    match = _WORD_OF.search(task)
    if match:
        word = _ordinal(match.group(1), match.group(2))
        ordinal = _ordinal(match.group(3), match.group(4)) or 1
        return Source(SOURCE_KINDS[match.group(5).casefold()], ordinal, word, match.group(0).strip())
    match = _SOURCE.search(task)
    if match:
        ordinal = _ordinal(match.group(1), match.group(2)) or 1
        return Source(SOURCE_KINDS[match.group(3).casefold()], ordinal, None, match.group(0).strip())
    return None


def _fits(node: HtmlElement, tags: tuple[str, ...]) -> bool:
    if node.tag not in tags:
        return False
    return node.tag != "input" or (node.get("type") or "").lower() in TEXT_TYPES


def find_source(root: HtmlElement, source: Source, restates: object = None) -> HtmlElement | None:
    """The source element in page order among visible elements of its kind (not one that restates the task)."""
    found = [node for node in root.iter() if isinstance(node.tag, str) and _fits(node, source.tags)
             and (node.get("data-ss-id") or "").isdigit()
             and not any(is_hidden(n) for n in (node, *node.iterancestors()))
             and not (callable(restates) and restates(node_text(node)))]
    if not found or abs(source.ordinal) > len(found):
        return None
    return found[source.ordinal - 1] if source.ordinal > 0 else found[source.ordinal]


def read_candidate(task: str, root: HtmlElement | None, history: list[Step], restates: object = None) -> ActionCandidate | None:
    """A ``read`` of the source the task names, once per episode, ranked above everything else: what it reads
    is what the next steps type."""
    source = read_source(task)
    if source is None or root is None or read_values(history):
        return None
    node = find_source(root, source, restates)
    if node is None:
        return None
    element: Element = describe(node, int(node.get("data-ss-id")))
    element.context = source.phrase  # the ordinal the task used is the evidence of which element was read
    kwargs = {"word": source.word} if source.word else {}
    return ActionCandidate(id="", action=Action(action_key="read", action_kwargs=kwargs, target_element_id=element.id),
                     text=f"read {source.phrase} ([id: {element.id}]) to use its value next", score=4.5,
                     grounded=[source.phrase], element=element)


def read_values(history: list[Step]) -> list[tuple[str, int | None]]:
    """The values earlier ``read`` steps returned, with the element each came from."""
    return [(str(step.action.action_kwargs["value"]), step.action.target_element_id) for step in history
            if step.action is not None and step.action.action_key == "read" and not step.error
            and step.action.action_kwargs.get("value") not in (None, "")]


READ_JS = """(el, word) => {
  let text = (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? el.value : el.innerText;
  if (word) {
    const words = text.trim().split(/\\s+/);
    text = (word > 0 ? words[word - 1] : words[words.length - 1]) || '';
    text = text.replace(/^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$/gu, '');
  }
  return text;
}"""
