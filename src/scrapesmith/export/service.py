"""Export a forged program as code its user owns: a Scrapy project, or one plain Python script.

Both carry the program as data (``program.json``, or a literal in the script) and the rules that read a
page (:mod:`.standalone` and :mod:`.standalone_run`, joined into one module), and import nothing of scrapesmith. The Scrapy project keeps the
politeness scrapesmith runs with (robots.txt, a delay per host, one request at a time per host, the user
agent); so does the script, with the standard library's ``urllib``.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from scrapesmith.artifacts import read_artifact_text
from scrapesmith.errors import ScrapesmithError
from scrapesmith.export import templates
from scrapesmith.induce import ScraperSpec
from scrapesmith.lists import ListProgram

EXPORT_TARGETS = ("scrapy", "python")
PACKAGE = "forged"
STANDALONE = Path(__file__).with_name("standalone.py")
STANDALONE_RUN = Path(__file__).with_name("standalone_run.py")


def standalone_source() -> str:
    """:mod:`.standalone` then :mod:`.standalone_run` as one module that imports nothing of scrapesmith: the
    second's docstring, its import of the first and the imports the first already makes are left out."""
    first = STANDALONE.read_text(encoding="utf-8")
    run = STANDALONE_RUN.read_text(encoding="utf-8")
    bound = {name for node in ast.parse(first).body for name in _imported_names(node)}
    dropped: set[int] = set()
    for node in ast.parse(run).body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node.lineno == 1
        names = _imported_names(node)
        joined = isinstance(node, ast.ImportFrom) and node.module == "scrapesmith.export.standalone"
        if docstring or joined or (names and names <= bound):
            dropped.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    kept = [line for number, line in enumerate(run.splitlines(keepends=True), start=1) if number not in dropped]
    return first + "\n\n" + re.sub(r"\n{4,}", "\n\n\n", "".join(kept).strip("\n")) + "\n"


def _imported_names(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.ImportFrom):
        return {f"{node.module}.{alias.asname or alias.name}" for alias in node.names}
    if isinstance(node, ast.Import):
        return {alias.asname or alias.name for alias in node.names}
    return set()


class ExportError(ScrapesmithError):
    """A program that cannot be exported as it is (it needs a model or a browser at run time)."""


@dataclass(frozen=True)
class Politeness:
    """How the exported code fetches: the user agent, seconds between requests to a host, robots.txt."""

    user_agent: str
    delay: float = 1.0
    robots: bool = True


Program = ScraperSpec | ListProgram


def load_program(path: Path) -> Program:
    """The scraper spec or list program saved at ``path`` (told apart by what the JSON holds)."""
    path = Path(path)
    text = read_artifact_text(path, "program", ExportError)  # a folder, empty, binary or missing file: one line
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ExportError(f"{path}: not a readable program ({exc})") from exc
    if isinstance(data, dict) and data.get("kind") == "scraper":
        return ScraperSpec.load(path)
    if isinstance(data, dict) and "steps" in data:
        return ListProgram.load(path)
    raise ExportError(f"{path} is neither a scraper spec (scrapesmith induce) nor a list program (scrapesmith lists)")


def _check_exportable(program: Program) -> None:
    if isinstance(program, ScraperSpec):
        return
    if program.runtime != "http":
        raise ExportError(f"list program {program.program_id} was recorded in a browser (runtime "
                          f"{program.runtime}); exported code fetches over HTTP: record it with the http runtime")
    if any(step.action == "AnswerQuestion" for step in program.steps):
        raise ExportError(f"list program {program.program_id} asks a model for a column (AnswerQuestion); "
                          "exported code runs with no model")
    if program.plan().failure is not None:
        raise ExportError(f"list program {program.program_id} ends in Fail: nothing to export")


def _identity(program: Program) -> tuple[str, str, dict]:
    """``(kind, program id, the program as JSON data)``."""
    if isinstance(program, ScraperSpec):
        return "spec", program.spec_id, json.loads(program.to_json())
    return "list", program.program_id, json.loads(program.to_json())


def _name(text: str) -> str:
    name = re.sub(r"\W+", "_", text).strip("_").lower()
    return name if name and not name[0].isdigit() else f"program_{name}"


def export_scrapy(program: Program, directory: Path, politeness: Politeness) -> Path:
    """Write a runnable Scrapy project for ``program`` into ``directory``; return the spider's file."""
    _check_exportable(program)
    kind, program_id, data = _identity(program)
    directory = Path(directory)
    name = _name(directory.resolve().name)
    package = directory / PACKAGE
    (package / "spiders").mkdir(parents=True, exist_ok=True)
    fill = {"package": PACKAGE, "package_literal": repr(PACKAGE), "spiders_literal": repr(f"{PACKAGE}.spiders"),
            "user_agent": repr(politeness.user_agent), "robots": repr(politeness.robots),
            "delay": repr(float(politeness.delay)), "program_id": program_id, "program_id_literal": repr(program_id),
            "name": name, "name_literal": repr(name), "kind": "scraper spec" if kind == "spec" else "list program",
            "robots_word": "obeyed" if politeness.robots else "not consulted", "directory": str(directory),
            "usage": (f"scrapy crawl {name} -a urls_file=urls.txt -O rows.jsonl" if kind == "spec"
                      else f"scrapy crawl {name} -O rows.jsonl")}
    (directory / "scrapy.cfg").write_text(Template(templates.SCRAPY_CFG).substitute(fill), encoding="utf-8")
    (directory / "README.md").write_text(Template(templates.PROJECT_README).substitute(fill), encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "spiders" / "__init__.py").write_text("", encoding="utf-8")
    (package / "settings.py").write_text(Template(templates.SETTINGS).substitute(fill), encoding="utf-8")
    (package / "extract.py").write_text(standalone_source(), encoding="utf-8")
    (package / "program.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    spider = package / "spiders" / f"{name}.py"
    template = templates.SPEC_SPIDER if kind == "spec" else templates.LIST_SPIDER
    spider.write_text(Template(template).substitute(fill), encoding="utf-8")
    return spider


def export_python(program: Program, path: Path, politeness: Politeness) -> Path:
    """Write one plain script (lxml and parsel, no scrapesmith) that runs ``program``; return its path."""
    _check_exportable(program)
    kind, program_id, data = _identity(program)
    body = standalone_source()
    body = body.split('"""', 2)[2].lstrip("\n")  # without the module's own docstring
    usage = ("python SCRIPT PAGE_OR_URL... [-o rows.jsonl]   (a .txt of URLs too; the spec's seeds otherwise)"
             if kind == "spec" else "python SCRIPT [START_URL...] [-o rows.jsonl]   (the recorded start page otherwise)")
    header = (f'"""scrapesmith {"scraper spec" if kind == "spec" else "list program"} {program_id}, exported by '
              f"`scrapesmith export` as a plain script (lxml and parsel; no scrapesmith).\n\n    {usage}\n\n"
              "Rows are JSON lines: the program's columns, then source_url, fetched_at, program_id.\n"
              '"""\n\n')
    main = Template(templates.SCRIPT_MAIN).substitute(
        program_json=repr(json.dumps(data, ensure_ascii=False)), program_id_literal=repr(program_id),
        kind_literal=repr(kind), user_agent=repr(politeness.user_agent), delay=repr(float(politeness.delay)),
        robots=repr(politeness.robots))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + body + main, encoding="utf-8")
    return path
