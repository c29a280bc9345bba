"""`bench nexteval --mutate`: real NEXT-EVAL pages redrawn, their truth following its elements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from scrapesmith.bench.nexteval import evaluate_page, normalize_xpath
from scrapesmith.bench.nexteval_mutated import LOST, mutated_page, run_mutated_nexteval
from scrapesmith.cli import app
from scrapesmith.dom.parse import parse_html

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "next-eval"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="shared NEXT-EVAL data not present")


def _page(page_id: str) -> tuple[bytes, list[list[str]]]:
    truth = json.loads((DATA / "groundtruth" / f"{page_id}.json").read_text())
    return (DATA / "html" / f"{page_id}.html").read_bytes(), truth


def _record_texts(root: etree._Element, record: list[str]) -> list[str]:
    """Every text under a record's elements, sorted (a reordered template may change their order)."""
    texts = []
    for xpath in record:
        for element in root.xpath("/html" + normalize_xpath(xpath)):
            texts.extend(text.strip() for text in element.itertext() if text.strip())
    return sorted(texts)


@needs_data
@pytest.mark.parametrize("kind", ["reorder", "wrappers", "headings"])
def test_the_truth_follows_its_elements_into_the_redrawn_page(kind: str) -> None:
    html, truth = _page("2")
    page = mutated_page(html, truth, kind, seed=0)
    original = parse_html(html)
    assert page.paths_lost == 0
    assert page.truth != truth  # each kind moves or renames elements on the paths to page 2's records
    for before, after in zip(truth, page.truth, strict=True):
        assert _record_texts(page.root, after) == _record_texts(original, before)


@needs_data
def test_unmutated_pages_score_as_the_plain_benchmark() -> None:
    result = run_mutated_nexteval(DATA / "html", DATA / "groundtruth", ["classes"], [0], only=["1", "5"])
    plain = [evaluate_page(*_page(page_id)).f1 for page_id in ("1", "5")]
    assert result.summary["none_f1"] == pytest.approx(sum(plain) / 2)
    assert result.summary["classes_pages"] == 2
    assert result.summary["classes_truth_paths_lost"] == 0


def test_true_elements_a_mutation_removes_are_counted_as_lost() -> None:
    html = (b"<html><body><table><tr><td>Name</td><td>Ada</td></tr><tr><td>Born</td><td>1815</td></tr>"
            b"</table></body></html>")
    truth = [["/body[1]/table[1]/tr[1]"], ["/body[1]/table[1]/tr[2]"]]
    page = mutated_page(html, truth, "tables", seed=1)
    assert page.paths_lost == 2
    assert page.truth == [[LOST], [LOST]]


@needs_data
def test_the_cli_reports_each_kind_and_refuses_unknown_kinds(tmp_path: Path) -> None:
    where = ["--html", str(DATA / "html"), "--groundtruth", str(DATA / "groundtruth"), "--pages", "1"]
    out = tmp_path / "mutated.json"
    result = CliRunner().invoke(app, ["bench", "nexteval", *where, "--mutate", "classes,labels",
                                      "--mutation-seeds", "0", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "classes: F1" in result.output and "labels: F1" in result.output
    saved = json.loads(out.read_text())
    assert {case["mutation"] for case in saved["cases"]} == {"none", "classes", "labels"}
    wrong = CliRunner().invoke(app, ["bench", "nexteval", *where, "--mutate", "colours"])
    assert wrong.exit_code == 2
    assert "--mutate takes" in wrong.output
