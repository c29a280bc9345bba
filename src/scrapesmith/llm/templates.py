"""Prompt templates: Jinja2 files under ``llm/prompts/``, named by their file name without ``.j2``.

Prompts are data taken from the seed papers, named ``<capability>_<role>`` (``insta_agent``,
``bardeen_policy``, ``induce_top_down``), so they live as files a reader can diff against the paper
rather than as strings inside code. Undefined variables are errors, not silent blanks, because a prompt
missing its page or goal would still "work" and mislead. Jinja's default whitespace handling is used, so
a template renders the same through :func:`render_prompt` as through any plain Jinja environment.
Files whose name starts with ``_`` are fragments for ``{% include %}``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from scrapesmith.llm.views import LLMError

PROMPTS_DIR = Path(__file__).parent / "prompts"
SUFFIX = ".j2"


class PromptNotFound(LLMError):
    """No template of that name exists under ``llm/prompts/``."""


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(PROMPTS_DIR),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=False,
    )


def render_prompt(name: str, **variables: Any) -> str:
    """Render ``prompts/<name>.j2`` with ``variables``."""
    try:
        template = _environment().get_template(name + SUFFIX)
    except jinja2.TemplateNotFound:
        raise PromptNotFound(f"no prompt template {name!r} (known: {', '.join(list_prompts())})") from None
    try:
        return template.render(**variables).strip()
    except jinja2.UndefinedError as exc:
        raise LLMError(f"prompt {name!r} needs a variable that was not given: {exc.message}") from exc


def list_prompts() -> list[str]:
    """Names of the renderable templates (fragments excluded)."""
    return sorted(
        path.relative_to(PROMPTS_DIR).with_suffix("").as_posix()
        for path in PROMPTS_DIR.rglob("*" + SUFFIX)
        if not path.name.startswith("_")
    )

