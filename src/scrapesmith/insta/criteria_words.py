"""The words the evidence judge reads a criterion by (``insta.verify``): verbs by the kind of action they ask
for, the actions each kind accepts, nouns naming kinds of elements, and words that add no requirement."""

from __future__ import annotations

TYPE_VERBS = frozenset({"enter", "type", "fill", "input", "write", "put", "paste"})
CHOOSE_VERBS = frozenset({"select", "choose", "pick", "tick", "check", "set"})
READ_VERBS = frozenset({"copy", "read"})
SCROLL_VERBS = frozenset({"scroll"})
CLICK_VERBS = frozenset({"click", "press", "tap", "hit", "push", "submit"})
FOCUS_VERBS = frozenset({"focus"})
UNCHECK_VERBS = frozenset({"uncheck", "untick", "deselect", "unselect"})
HOVER_VERBS = frozenset({"hover"})
#: Verbs that say what to reach, not how: any kind of action can do it (a click on the row of "Deva").
REACH_VERBS = frozenset({"find", "open", "go", "visit", "view", "navigate", "use", "search", "switch",
                         "expand", "close", "show", "locate", "solve", "mark", "delete"})
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
