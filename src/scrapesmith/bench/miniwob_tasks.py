"""The MiniWoB++ task lists we develop on, the family of each task, and where the task pages are.

Four development lists: :data:`DEFAULT_TASKS` (45), :data:`WIDGET_TASKS` (16, issue 35), :data:`CHECK_TASKS` (the
seventeen-task check set of issue 35, chosen from names only) and :data:`VISUAL_TASKS` (10, issue 42: what things look
like, counting and comparing, timing). Every other MiniWoB task is the project's held-out measure. ``--tasks`` takes a
list's name (``default``, ``widget``, ``check``, ``visual``), ``all-dev`` (the four lists), ``all`` or task names.
A task's *family* (click, form, widget, visual, mail, reading) is read off its list and its name's first words, so a
whole-list run reports success by family.
"""

from __future__ import annotations

from pathlib import Path

from scrapesmith.errors import ScrapesmithError

#: 45 tasks our action set (click, fill, select, check, hover, scroll) can solve; drag/canvas tasks left out.
DEFAULT_TASKS = (
    "click-button", "click-button-sequence", "click-checkboxes", "click-checkboxes-soft",
    "click-checkboxes-large", "click-checkboxes-transfer", "click-collapsible", "click-collapsible-nodelay",
    "click-collapsible-2-nodelay", "click-dialog", "click-dialog-2", "click-link", "click-option",
    "click-tab", "click-tab-2-easy", "click-tab-2", "click-test", "click-test-2", "click-test-transfer",
    "click-widget", "click-menu-2", "choose-list", "enter-password", "enter-text", "enter-text-2",
    "enter-text-dynamic", "focus-text", "focus-text-2", "login-user", "login-user-popup", "multi-layouts",
    "multi-orderings", "navigate-tree", "read-table", "read-table-2", "simple-algebra", "simple-arithmetic",
    "social-media", "social-media-some", "social-media-all", "email-inbox", "email-inbox-delete",
    "search-engine", "unicode-test", "use-autocomplete-nodelay",
)
#: A second development list (issue 35): widgets (date pickers, sliders, a spinner, a custom dropdown, a text area to
#: scroll), read-then-act (text to copy, numbers to classify, feedback to follow) and multi-step mail and form flows.
WIDGET_TASKS = (
    "choose-date", "choose-date-medium", "choose-date-nodelay", "use-slider", "use-slider-2", "use-spinner",
    "copy-paste-2", "form-sequence-3", "email-inbox-forward", "email-inbox-star-reply", "email-inbox-nl-turk",
    "email-inbox-forward-nl-turk", "book-flight", "guess-number", "scroll-text-2", "odd-or-even",
)
#: The check set of issue 35: seventeen other tasks chosen at its start from their names only.
CHECK_TASKS = (
    "enter-date", "enter-time", "use-autocomplete", "click-scroll-list", "click-menu", "find-word", "copy-paste",
    "form-sequence", "form-sequence-2", "email-inbox-reply", "email-inbox-important", "email-inbox-forward-nl",
    "choose-date-easy", "scroll-text", "phone-book", "sign-agreement", "click-tab-2-medium",
)
#: Issue 42: what things look like (colours, shapes, sizes, grid positions), counting and comparing, a game, a delay.
VISUAL_TASKS = (
    "click-color", "click-shape", "count-shape", "hover-shape", "find-greatest", "number-checkboxes", "buy-ticket",
    "grid-coordinate", "tic-tac-toe", "button-delay",
)
#: Names ``--tasks`` takes for a whole list; ``all-dev`` is every development list.
TASK_LISTS = {"default": DEFAULT_TASKS, "widget": WIDGET_TASKS, "check": CHECK_TASKS, "visual": VISUAL_TASKS}
TASK_LISTS["all-dev"] = tuple(dict.fromkeys(task for tasks in TASK_LISTS.values() for task in tasks))
#: A task's family by the first words of its name (the first prefix that fits); the visual list is a family of its
#: own, and a name no prefix fits is a click task.
FAMILY_PREFIXES = (
    ("email-", "mail"),
    ("read-", "reading"), ("copy-paste", "reading"), ("find-", "reading"), ("simple-", "reading"),
    ("odd-or-even", "reading"), ("guess-", "reading"), ("phone-book", "reading"), ("scroll-text", "reading"),
    ("choose-date", "widget"), ("use-", "widget"), ("enter-date", "widget"), ("enter-time", "widget"),
    ("click-scroll-list", "widget"), ("choose-list", "widget"), ("navigate-tree", "widget"),
    ("enter-", "form"), ("login-", "form"), ("form-", "form"), ("focus-", "form"), ("multi-", "form"),
    ("book-", "form"), ("search-", "form"), ("sign-", "form"), ("unicode-", "form"),
)
FAMILIES = ("click", "form", "widget", "visual", "mail", "reading")


def task_family(task: str) -> str:
    """The family a task's success is reported under (:data:`FAMILIES`)."""
    if task in VISUAL_TASKS:
        return "visual"
    return next((family for prefix, family in FAMILY_PREFIXES if task.startswith(prefix)), "click")

class MiniwobUnavailable(ScrapesmithError):
    """The ``miniwob`` package (``bench`` extra) is not installed, or a task name is unknown."""


def miniwob_html_dir() -> Path:
    try:
        import miniwob
    except ImportError:
        raise MiniwobUnavailable("MiniWoB++ needs the miniwob package: pip install 'scrapesmith[bench]'") from None
    return Path(miniwob.__file__).parent / "html"


def available_tasks() -> list[str]:
    return sorted(path.stem for path in (miniwob_html_dir() / "miniwob").glob("*.html"))


def resolve_tasks(names: list[str] | None) -> list[str]:
    """Task names as given; ``all``; or a list's name (``default``, ``widget``, ``check``, ``visual``, ``all-dev``) in
    their place."""
    if not names:
        return list(DEFAULT_TASKS)
    if names == ["all"]:
        return available_tasks()
    names = [task for name in names for task in TASK_LISTS.get(name, (name,))]
    known = set(available_tasks())
    unknown = [name for name in names if name not in known]
    if unknown:
        raise MiniwobUnavailable(f"unknown MiniWoB task(s): {', '.join(unknown)}")
    return names


