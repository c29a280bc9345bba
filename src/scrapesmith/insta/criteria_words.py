"""The words the evidence judge reads a criterion by (``insta.verify``): verbs by the kind of action they ask
for, the actions each kind accepts, nouns naming kinds of elements, and words that add no requirement."""

from __future__ import annotations

import re

TYPE_VERBS = frozenset({"enter", "type", "fill", "input", "write", "put", "paste"})
CHOOSE_VERBS = frozenset({"select", "choose", "pick", "tick", "check", "set"})
READ_VERBS = frozenset({"copy", "read"})
SCROLL_VERBS = frozenset({"scroll"})
CLICK_VERBS = frozenset({"click", "press", "tap", "hit", "push", "submit"})
FOCUS_VERBS = frozenset({"focus"})
UNCHECK_VERBS = frozenset({"uncheck", "untick", "deselect", "unselect"})
HOVER_VERBS = frozenset({"hover"})
#: Verbs that ask for a message to leave: typing it is not enough, a send control must be clicked after it.
SEND_VERBS = frozenset({"reply", "respond", "forward", "send", "message"})
#: What a control that sends a message is named.
SEND_WORDS = frozenset({"send", "submit", "reply", "forward", "post", "ok", "done"})
#: Verbs that say what to reach, not how: any kind of action can do it (a click on the row of "Deva").
REACH_VERBS = frozenset({"find", "open", "go", "visit", "view", "navigate", "use", "search", "switch",
                         "expand", "close", "show", "locate", "solve", "delete"})
KINDS: dict[str, frozenset[str]] = {
    "type": frozenset({"fill"}),
    "choose": frozenset({"select_option", "set_checked", "click"}),
    "click": frozenset({"click", "set_checked"}),
    "focus": frozenset({"click", "fill"}),
    "uncheck": frozenset({"uncheck"}),
    "hover": frozenset({"hover"}),
    "reach": frozenset({"click", "fill", "select_option", "set_checked", "hover"}),
    "read": frozenset({"read"}),
    "scroll": frozenset({"scroll"}),
    "send": frozenset({"click", "fill", "select_option", "set_checked", "hover"}),
}
#: Words naming a kind of element, and the roles that kind covers (``Element.role``).
ELEMENT_NOUNS: dict[str, frozenset[str]] = {
    "button": frozenset({"button", "clickable", "icon"}),
    "link": frozenset({"link", "clickable", "text"}),
    "field": frozenset({"textbox"}), "textbox": frozenset({"textbox"}), "input": frozenset({"textbox"}),
    "text": frozenset({"textbox", "text", "clickable"}), "textarea": frozenset({"textbox"}),
    "checkbox": frozenset({"checkbox"}), "box": frozenset({"checkbox", "textbox"}),
    "radio": frozenset({"radio"}), "tab": frozenset({"tab", "link", "clickable"}),
    "list": frozenset({"select", "option", "listbox"}), "dropdown": frozenset({"select"}),
    "menu": frozenset({"menu", "menuitem", "select", "button"}), "icon": frozenset({"icon", "clickable", "button"}),
    "option": frozenset(), "item": frozenset(), "entry": frozenset(), "element": frozenset(),
    "widget": frozenset(), "form": frozenset(), "area": frozenset(),
}
#: Words that add no requirement of their own ("Press Submit *when done*").
FILLER = frozenset({"when", "done", "finished", "complete", "completed", "there", "here", "also", "just",
                    "please", "once", "finally", "after", "before", "into", "onto", "inside", "within",
                    "labeled", "labelled", "named", "called", "titled", "between", "through",
                    "below", "above", "way", "following"})
#: Words that ask for a count the log cannot confirm one action at a time.
COUNT_WORDS = frozenset({"all", "each", "every", "both", "none", "nothing", "only", "twice"})
#: What a one-character close control shows: a task says "click the "x"", the page names the button "Close".
CLOSE_GLYPHS = frozenset({"x", "\u00d7", "\u2715", "\u2716", "\u2a2f", "\u2573"})
#: "the *folder or file* named "Emile"", "the *email* by Deva", "*1 post* / all *posts* by @enola": the words before a linking
#: word describe the thing the name that follows identifies; the name is the requirement, the description is not
#: shown on the element (a file tree row shows "Emile", not "folder"). A number before them is a count.
_DESCRIBED = re.compile(r"\b(?i:the|a|an|all|each|every|(\d+))\s+((?:\w+\s+){0,2}?\w+(?:\s+or\s+\w+)?)\s+"
                        r"(?i:named|labeled|labelled|called|titled|by|from)\s+(?=[\"\u201c\u2018'@#]|[A-Z0-9])")


def described(criterion: str) -> tuple[set[str], str | None]:
    """The words that describe what a name identifies (see :data:`_DESCRIBED`), casefolded, and the count
    written before them ("1 post by @enola": "1"), if any."""
    words: set[str] = set()
    count = None
    for match in _DESCRIBED.finditer(criterion):
        words |= {w.casefold() for w in re.findall(r"\w+", match.group(2)) if w.casefold() != "or"}
        count = count or match.group(1)
    return words, count
