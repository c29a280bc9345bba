"""Drawing a :class:`Report` as one static HTML page (Jinja2, autoescaped, inline CSS and SVG only).

Nothing in the page loads anything: no scripts from elsewhere, no fonts, no images by URL. Links in the
table point at the pages rows came from (their provenance) and are only followed when clicked.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from scrapesmith.report.charts import fill_bars, histogram, time_line
from scrapesmith.report.views import Report, StageBar

ROWS_SHOWN = 20
BAR_HEIGHT = 18
BAR_GAP = 6
CHART_WIDTH = 520
LABEL_WIDTH = 170
_QUOTED = re.compile(r"(&#39;|&#34;|&quot;)(.*?)\1")
_SELECTOR = re.compile(r"^(//|\.//|:scope|id\()|\|\||[\w\]\)]\s?>\s?\w|^[a-z]*[.#][\w-]+|^\w+\[[^\]]+\]")

_environment = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
_environment.globals.update(fill_bars=fill_bars, histogram=histogram, time_line=time_line)


def highlight_selectors(text: str) -> Markup:
    """``text`` escaped, with every quoted string that reads as a CSS selector or XPath in ``<mark>``."""

    def mark(match: re.Match[str]) -> str:
        quote, inner = match.group(1), match.group(2)
        if _SELECTOR.search(inner):
            return f'{quote}<mark class="selector">{inner}</mark>{quote}'
        return match.group(0)

    return Markup(_QUOTED.sub(mark, str(escape(text))))


def chart(stages: list[StageBar]) -> dict:
    """Bar geometry for the ledger chart: tokens per stage (calls when no stage counted tokens)."""
    by_tokens = any(bar.tokens for bar in stages)
    largest = max((bar.tokens if by_tokens else bar.calls for bar in stages), default=0) or 1
    bars = []
    for index, bar in enumerate(stages):
        value = bar.tokens if by_tokens else bar.calls
        bars.append({"stage": bar.stage, "y": index * (BAR_HEIGHT + BAR_GAP), "value": value, "calls": bar.calls,
                     "width": max(1, round((CHART_WIDTH - LABEL_WIDTH - 120) * value / largest)),
                     "cost": bar.cost})
    return {"bars": bars, "unit": "tokens" if by_tokens else "calls", "label_width": LABEL_WIDTH,
            "width": CHART_WIDTH, "height": max(1, len(bars)) * (BAR_HEIGHT + BAR_GAP), "bar_height": BAR_HEIGHT}


def render_report(report: Report) -> str:
    """The whole page as a string."""
    template = _environment.get_template("report.html.j2")
    return template.render(
        report=report, shown=report.rows[:ROWS_SHOWN], columns=report.columns, chart=chart(report.stages),
        program=highlight_selectors(report.program_text), steps=[highlight_selectors(s) for s in report.steps],
        made_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))


def render_index(folder: str, runs: list[tuple[str, Report]]) -> str:
    """A page listing several runs (a demo directory): one line per run, linking to its own report."""
    return _environment.get_template("index.html.j2").render(
        folder=folder, runs=runs, made_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
