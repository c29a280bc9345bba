"""``scrapesmith export``: a forged program as a Scrapy project or a plain script its user owns."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scrapesmith.cli import app, console
from scrapesmith.cli.options import DelayOption, NoRobotsOption, check_choice
from scrapesmith.config import get_settings
from scrapesmith.export import EXPORT_TARGETS, Politeness, export_python, export_scrapy, load_program


@app.command("export")
def export_command(
    program: Annotated[Path, typer.Argument(help="A scraper spec (scrapesmith induce) or a list program "
                                                 "(scrapesmith lists --program), as JSON.")],
    to: Annotated[tuple[str, Path], typer.Option(
        "--to", metavar="scrapy DIR | python FILE",
        help="scrapy DIR: a runnable Scrapy project in DIR; python FILE: one plain script (lxml, parsel).")],
    delay: DelayOption = None,
    no_robots: NoRobotsOption = False,
) -> None:
    """Export a forged program as code that runs without scrapesmith: a Scrapy project (a spider with the
    program's XPaths and selectors via parsel, pagination and detail pages for a list program, the same
    politeness: robots.txt, the delay per host, one request at a time per host) or a plain Python script.

    The rows are the ones `scrapesmith run` or `scrapesmith replay` writes (less the private-address guard:
    the exported code reaches whatever it is pointed at)."""
    target, where = to
    check_choice("--to", target, EXPORT_TARGETS)
    settings = get_settings()
    politeness = Politeness(settings.user_agent, settings.politeness_delay if delay is None else delay,
                            robots=not no_robots)
    forged = load_program(program)
    if target == "scrapy":
        spider = export_scrapy(forged, where, politeness)
        console.print(f"Scrapy project in {where} (spider {spider.stem}): cd {where} && scrapy crawl {spider.stem} "
                      "-O rows.jsonl", highlight=False)
    else:
        script = export_python(forged, where, politeness)
        console.print(f"script {script}: python {script} [PAGES...] -o rows.jsonl", highlight=False)
