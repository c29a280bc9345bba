"""The BardeenAgent action language (the paper's Appendix A) as typed, JSON-serialisable actions.

While recording, an action's ``element`` is the numeric id the policy saw in the simplified DOM; in a
:class:`~scrapesmith.lists.views.ListProgram` it is a CSS selector (page-absolute outside a list,
``:scope``-relative to the list item inside one). Alternatives are joined with `` || `` and tried in order,
as the paper joins viable heuristic selectors (``a.load-more, #blog > a:last-child``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from scrapesmith.artifacts import check_regex
from scrapesmith.induce import ScraperSpec

ElementRef = int | str
ALTERNATIVE_SEPARATOR = " || "


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Click(Action):
    """Click an element; over HTTP a click follows the element's link or submits its GET form."""

    action: Literal["Click"] = "Click"
    element: ElementRef


class TypeInput(Action):
    """Enter ``value`` in a text box or choose it in a ``<select>``; ``enter`` submits the form."""

    action: Literal["TypeInput"] = "TypeInput"
    element: ElementRef
    value: str
    enter: bool = False


class GoBack(Action):
    action: Literal["GoBack"] = "GoBack"


class EnterList(Action):
    """Begin a list: example ``elements`` (items or parts of items), a description, a pagination control."""

    action: Literal["EnterList"] = "EnterList"
    elements: list[ElementRef]
    description: str = ""
    pagination: ElementRef | None = None


class ExitList(Action):
    action: Literal["ExitList"] = "ExitList"


class SaveCurrentURL(Action):
    action: Literal["SaveCurrentURL"] = "SaveCurrentURL"
    column: str


class SaveText(Action):
    """Save an element's text to ``column``; with ``regex``, only the match (its first group if any)."""

    action: Literal["SaveText"] = "SaveText"
    element: ElementRef
    column: str
    regex: str | None = None

    _regex_compiles = field_validator("regex")(check_regex)


class SaveLink(Action):
    action: Literal["SaveLink"] = "SaveLink"
    element: ElementRef
    column: str


class AnswerQuestion(Action):
    """Ask the LLM ``question`` about an element's text and save the answer: the only per-row LLM use."""

    action: Literal["AnswerQuestion"] = "AnswerQuestion"
    element: ElementRef
    column: str
    question: str


class ScrapeFields(Action):
    """Run an induced field scraper on the current (detail) page and save each of its fields to the column
    of the same name: the lists detail pass finds fields with induce's engine, never with a mapper of its
    own. Multi-valued fields are joined with ``"; "``."""

    action: Literal["ScrapeFields"] = "ScrapeFields"
    spec: ScraperSpec

    @property
    def columns(self) -> list[str]:
        return [field.name for field in self.spec.fields]


class Finish(Action):
    action: Literal["Finish"] = "Finish"


class Fail(Action):
    action: Literal["Fail"] = "Fail"
    error_code: str = "failed"
    error_message: str = ""


AnyAction = Annotated[
    Click
    | TypeInput
    | GoBack
    | EnterList
    | ExitList
    | SaveCurrentURL
    | SaveText
    | SaveLink
    | AnswerQuestion
    | ScrapeFields
    | Finish
    | Fail,
    Field(discriminator="action"),
]

EXTRACTING = (SaveCurrentURL, SaveText, SaveLink, AnswerQuestion, ScrapeFields)


def alternatives(selector: ElementRef) -> list[str]:
    """The CSS alternatives of a program selector, in the order they should be tried."""
    return [part.strip() for part in str(selector).split(ALTERNATIVE_SEPARATOR) if part.strip()]


def join_alternatives(selectors: list[str]) -> str:
    unique = list(dict.fromkeys(selector for selector in selectors if selector))
    return ALTERNATIVE_SEPARATOR.join(unique)


def describe(action: Action) -> str:
    """The paper's notation, e.g. ``SaveText(:scope .title > a, "Title")``, for logs and the demo."""
    if isinstance(action, ScrapeFields):
        return f"ScrapeFields({action.spec.spec_id}: {', '.join(action.columns)})"
    fields = action.model_dump(exclude={"action"}, exclude_none=True)
    return f"{type(action).__name__}({', '.join(repr(value) for value in fields.values())})"
