"""End-to-end collection on the demo web: the scripted-LLM run reproduces the ground truth exactly, the
heuristic path works from a start URL, and the run directory holds every artefact."""

from __future__ import annotations

import csv
import json
import re

import pytest

from scrapesmith.collect.agents import NoStartingPoint
from scrapesmith.collect.program import HostsNotAllowed, run_program_file
from scrapesmith.collect.service import collect
from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest

INSTRUCTION = "Collect all papers of CLML 2023 with columns title, authors, track and url."


def _links(prompt: str) -> dict[str, int]:
    return {url: int(n) for n, _text, url in re.findall(r"^(\d+)\. (.*?) -> (\S+)$", prompt, re.MULTILINE)}


def scripted_team(request: LLMRequest) -> str:
    """Plays the agents' decisions the way a capable model would, reading only the prompt it is sent."""
    prompt = request.messages[-1].content
    if request.stage == "collect.plan":
        return json.dumps({"steps": ["find the CLML 2023 page", "collect every track's paper list"],
                           "columns": ["title", "authors", "track", "url"], "start_url": None,
                           "keywords": ["CLML", "2023", "papers"]})
    if request.stage == "collect.web":
        links = _links(prompt)
        tracks = [n for url, n in links.items() if re.search(r"/clml/2023/[a-z-]+/$", url)]
        if tracks:
            return json.dumps({"thought": "each track lists its papers", "action": "use_links", "choice": tracks})
        year = next(n for url, n in links.items() if url.endswith("/clml/2023/"))
        return json.dumps({"thought": "open the 2023 proceedings", "action": "open", "choice": [year]})
    if request.stage == "collect.blueprint":
        lists = re.search(r"^(\d+)\. list at", prompt, re.MULTILINE)
        return json.dumps({"choice": int(lists.group(1)), "field_map": {"track": "@label"}})
    return json.dumps({"choice": 0})


def ground_truth(demo_web) -> list[dict]:
    papers = demo_web.sites.truth("proceedings")["papers"]
    return [{"title": p["title"], "authors": ", ".join(p["authors"]), "track": p["track"],
             "url": demo_web.url(p["url"])} for p in papers if p["conference"] == "CLML" and p["year"] == 2023]


def _dataset(run_dir) -> list[dict]:
    with (run_dir / "dataset.csv").open() as handle:
        return [{k: row[k] for k in ("title", "authors", "track", "url")} for row in csv.DictReader(handle)]


@pytest.fixture(scope="module")
def scripted_run(demo_web, tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("run")
    llm = ScriptedLLM(scripted_team)
    steps = []
    result = collect(INSTRUCTION, llm=llm, run_dir=run_dir, allow_hosts=[f"{demo_web.host}:{demo_web.port}"],
                     seeds=[demo_web.url("/proceedings/")], delay=0.0,
                     progress=lambda agent, step, rows: steps.append((agent, step, rows)))
    return result, llm, steps


def test_scripted_collection_reproduces_the_ground_truth_exactly(scripted_run, demo_web):
    result, _llm, _steps = scripted_run
    collected = _dataset(result.run_dir)
    expected = ground_truth(demo_web)
    assert sorted(collected, key=lambda r: r["url"]) == sorted(expected, key=lambda r: r["url"])
    assert result.valid and result.finished


def test_web_agent_sees_what_the_tools_find_here_and_below(scripted_run):
    """On the year page its own list (the site's navigation) fills only title and url, while the track
    pages below fill all four columns: the prompt says so, so a small model compares instead of guessing."""
    _result, llm, _steps = scripted_run
    year_prompt = next(r.messages[-1].content for r in llm.requests
                       if r.stage == "collect.web" and "Current page: " in r.messages[-1].content
                       and re.search(r"Current page: \S+/clml/2023/\n", r.messages[-1].content))
    found = year_prompt.split("What the extraction tools found: ", 1)[1].splitlines()[0]
    assert "this page: a list of" in found and "filling title, url" in found
    assert re.search(r"link \d+ \(Main\) holds a list of \d+ rows filling title, authors, track, url", found)


def test_run_directory_holds_every_artefact(scripted_run):
    run_dir = scripted_run[0].run_dir
    for name in ("dataset.csv", "dataset.parquet", "blueprint.md", "program.py", "validation.json", "ledger.json",
                 "pages.warc.gz", "messages.jsonl"):
        assert (run_dir / name).is_file(), name
    assert "html_list" in (run_dir / "blueprint.md").read_text()


def test_agents_are_scheduled_in_the_papers_order_and_progress_is_reported(scripted_run):
    result, llm, steps = scripted_run
    assert result.trail == ["plan", "tool", "web", "tool", "blueprint", "engineer", "test", "validation", "finish"]
    # the blueprint agent has nothing to choose (one list fills every column), so it does not ask the model
    assert {stage for stage in (r.stage for r in llm.requests)} == {"collect.plan", "collect.web"}
    assert steps[-1][2] == result.rows > 0
    ledger = json.loads((result.run_dir / "ledger.json").read_text())
    assert set(ledger["by_stage"]) == {"collect.plan", "collect.web"}


def test_messages_follow_the_hypergraph_routes(scripted_run):
    edges = [json.loads(line) for line in (scripted_run[0].run_dir / "messages.jsonl").read_text().splitlines()]
    blueprint = next(e for e in edges if e["kind"] == "blueprint")
    assert set(blueprint["targets"]) == {"engineer", "validation", "manager"}
    assert "cache://" in blueprint["text"] and "<html" not in blueprint["text"]


def test_rerunning_program_py_recollects_without_a_model(scripted_run, demo_web):
    run_dir = scripted_run[0].run_dir
    before = _dataset(run_dir)
    (run_dir / "dataset.csv").unlink()
    outcome = run_program_file(run_dir / "program.py", [f"{demo_web.host}:{demo_web.port}"])
    assert outcome.ok, outcome.stderr
    assert _dataset(run_dir) == before


def test_rerun_refuses_hosts_the_program_allows_itself(scripted_run):
    with pytest.raises(HostsNotAllowed, match=r"declares ALLOW_HOSTS 127\.0\.0\.1:\d+.*cannot allow itself") as raised:
        run_program_file(scripted_run[0].run_dir / "program.py", [])
    assert [host.split(":")[0] for host in raised.value.hosts] == ["127.0.0.1"]


def test_heuristic_path_collects_from_a_start_url(demo_web, tmp_path):
    url = demo_web.url("/proceedings/nlpx/2022/findings/")
    result = collect(f"Papers listed at {url} with columns title, authors and url", llm=None, run_dir=tmp_path,
                     allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0.0)
    truth = {demo_web.url(p["url"]) for p in demo_web.sites.truth("proceedings")["papers"]
             if (p["conference"], p["year"], p["track"]) == ("NLPX", 2022, "Findings")}
    with (tmp_path / "dataset.csv").open() as handle:
        assert {row["url"] for row in csv.DictReader(handle)} == truth
    assert result.llm_calls == 0 and result.valid


def test_heuristic_path_without_a_start_url_fails_clearly(tmp_path):
    with pytest.raises(NoStartingPoint, match="must name a start URL"):
        collect("All papers of CLML 2023 with columns title, url", llm=None, run_dir=tmp_path, allow_hosts=[])



def test_a_listing_entered_on_a_later_page_is_collected_from_page_one(demo_web):
    from scrapesmith.collect.agents.research import listing_start
    from scrapesmith.web.fetch import HttpFetcher

    with HttpFetcher(allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0) as http:
        later = http.fetch(demo_web.url("/sports/season/2022/players/3/"))
        first = http.fetch(demo_web.url("/sports/season/2022/players/"))
    assert listing_start(later) == demo_web.url("/sports/season/2022/players/")
    assert listing_start(first) == first.url


def test_the_model_is_consulted_only_where_there_is_a_choice(demo_web, tmp_path):
    """A start URL, named columns and one table that fills them all: no step has anything to choose, so
    no request reaches the model; ``always_ask`` (the paper's behaviour, used by the ablations) asks anyway."""
    url = demo_web.url("/sports/season/2023/standings.html")
    instruction = f"Standings at {url} with columns team, games, wins and losses"
    allow = [f"{demo_web.host}:{demo_web.port}"]
    quiet, asking = ScriptedLLM(scripted_team), ScriptedLLM(
        lambda r: json.dumps({"thought": "here", "action": "use_page", "choice": []}) if r.stage == "collect.web"
        else scripted_team(r))
    lean = collect(instruction, llm=quiet, run_dir=tmp_path / "lean", allow_hosts=allow, delay=0.0)
    eager = collect(instruction, llm=asking, run_dir=tmp_path / "eager", allow_hosts=allow, delay=0.0,
                    always_ask=True)
    assert lean.rows == eager.rows == 8
    assert quiet.calls == 0 and lean.llm_calls == 0
    assert {r.stage for r in asking.requests} >= {"collect.plan", "collect.web"}


def test_use_page_is_overruled_when_the_pages_below_hold_every_column(demo_web, tmp_path):
    """A model that says "use this page" on a year page whose only list is navigation: the tools show the
    track pages below fill every column, so the web agent takes the track links instead."""
    def stubborn(request: LLMRequest) -> str:
        if request.stage == "collect.web":
            return json.dumps({"thought": "this page has the records", "action": "use_page", "choice": []})
        return scripted_team(request)

    collect(INSTRUCTION, llm=ScriptedLLM(stubborn), run_dir=tmp_path, delay=0.0,
                     allow_hosts=[f"{demo_web.host}:{demo_web.port}"], seeds=[demo_web.url("/proceedings/clml/2023/")])
    assert sorted(map(tuple, (r.values() for r in _dataset(tmp_path)))) == sorted(
        map(tuple, (r.values() for r in ground_truth(demo_web))))
    web = next(json.loads(line) for line in (tmp_path / "messages.jsonl").read_text().splitlines()
           if json.loads(line)["kind"] == "web")
    assert "overruled use_page" in web["text"]


def test_a_list_recorded_on_a_one_page_track_follows_next_on_a_longer_one(demo_web, tmp_path):
    """CLML 2022: Main fits on one page, Datasets and Benchmarks takes two; every paper is collected."""
    url = demo_web.url("/proceedings/clml/2022/")
    collect(f"Collect all papers of CLML 2022 with columns title, authors, track and url. Start at {url}", llm=None,
            run_dir=tmp_path, allow_hosts=[f"{demo_web.host}:{demo_web.port}"], delay=0.0)
    truth = [p for p in demo_web.sites.truth("proceedings")["papers"] if (p["conference"], p["year"]) == ("CLML", 2022)]
    assert sorted(row["url"] for row in _dataset(tmp_path)) == sorted(demo_web.url(p["url"]) for p in truth)


def test_research_reads_each_page_once(scripted_run):
    """The web agent, its probes and the tools weigh the same pages several times; the research archive
    shows each was fetched once."""
    from warcio.archiveiterator import ArchiveIterator

    with (scripted_run[0].run_dir / "research.warc.gz").open("rb") as stream:
        fetched = [record.rec_headers.get_header("WARC-Target-URI") for record in ArchiveIterator(stream)
                   if record.rec_type == "response"]
    assert fetched and len(fetched) == len(set(fetched))
