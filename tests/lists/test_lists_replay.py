"""Record (no model) and replay list programs over HTTP on the demo web and on a site that changes."""

from __future__ import annotations

import json

from scrapesmith.bench.weblists import url_key
from scrapesmith.lists.dsl import AnswerQuestion, EnterList, ExitList, SaveLink, SaveText
from scrapesmith.lists.service import extract_list, replay_program
from scrapesmith.lists.views import ListProgram
from scrapesmith.llm.scripted import ScriptedLLM


def paths(rows: list[dict], column: str) -> list[str]:
    return [url_key(row[column]) for row in rows]


def truth_paths(records: list[dict]) -> list[str]:
    return [url_key(record["url"]) for record in records]


def test_jobs_over_all_pages_without_duplicates(demo_web, demo_runtimes) -> None:
    truth = demo_web.sites.truth("acme")
    recording, result = extract_list(
        demo_runtimes, demo_web.url("/acme/careers/"), "all open jobs", ["Job Title", "Job URL"]
    )
    assert recording.program.plan().enter.pagination
    assert sorted(paths(result.rows, "Job URL")) == sorted(truth_paths(truth["jobs"]))
    assert result.pages == 4 and result.stop_reason
    assert {row["Job Title"] for row in result.rows} == {job["title"] for job in truth["jobs"]}
    assert all(row["source_url"].startswith(demo_web.base_url) and row["program_id"] for row in result.rows)


def test_recorded_category_filter_is_replayed(demo_web, demo_runtimes) -> None:
    truth = demo_web.sites.truth("northwind")
    recording, result = extract_list(
        demo_runtimes, demo_web.url("/northwind/jobs/"), "all open Design jobs", ["Job Title", "Job URL"]
    )
    assert recording.program.plan().setup, "the filter should be a recorded setup action"
    expected = [job for job in truth["jobs"] if job["category"] == "Design"]
    assert sorted(paths(result.rows, "Job URL")) == sorted(truth_paths(expected))


def test_jobs_grouped_under_team_headers_form_one_list(demo_web, demo_runtimes) -> None:
    truth = demo_web.sites.truth("northwind")
    _recording, result = extract_list(
        demo_runtimes, demo_web.url("/northwind/jobs/"), "all jobs", ["Job Title", "Job URL"]
    )
    assert sorted(paths(result.rows, "Job URL")) == sorted(truth_paths(truth["jobs"]))


def test_blog_list_with_a_detail_pass(demo_web, demo_runtimes) -> None:
    truth = {url_key(post["url"]): post for post in demo_web.sites.truth("globex")["posts"]}
    recording, result = extract_list(
        demo_runtimes,
        demo_web.url("/globex/resources/blog/"),
        "all blog posts",
        ["Post Title", "Post URL", "Author"],
    )
    assert recording.program.plan().detail_link is not None
    posts = [row for row in result.rows if url_key(row["Post URL"]) in truth]
    assert len(posts) == len(truth)
    assert all(row["Author"] == truth[url_key(row["Post URL"])]["author"] for row in posts)
    assert result.detail_pages == len(result.rows)


def cards(items: list[tuple[str, str]], next_href: str | None = None, prev_href: str | None = None) -> str:
    body = "".join(
        f'<li class="item"><h3><a href="{href}">{title}</a></h3><p class="meta">By {title[:3]}</p>'
        f"<p>Some words about {title}.</p></li>"
        for title, href in items
    )
    pager = (f'<a class="pager" href="{prev_href}">Previous</a>' if prev_href else "") + (
        f'<a class="pager" href="{next_href}">Next</a>' if next_href else ""
    )
    return f"<html><body><nav><a href='/'>Home</a></nav><ul class='items'>{body}</ul>{pager}</body></html>"


def test_replay_on_a_changed_page_still_extracts_everything(mutable_site, site_runtimes) -> None:
    first = [(f"Item {i}", f"/items/{i}") for i in range(1, 6)]
    mutable_site.pages["/list"] = cards(first)
    recording, before = extract_list(site_runtimes, mutable_site.url("/list"), "items", ["Title", "URL"])
    assert len(before.rows) == 5
    changed = [item for item in first if item[0] != "Item 2"] + [
        ("Item 6", "/items/6"),
        ("Item 7", "/items/7"),
    ]
    mutable_site.pages["/list"] = cards(changed)
    after = replay_program(site_runtimes, recording.program)
    assert [row["Title"] for row in after.rows] == [title for title, _ in changed]


def test_pagination_stops_when_next_turns_into_previous(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/p1"] = cards([("A one", "/a"), ("B one", "/b"), ("C one", "/c")], next_href="/p2")
    mutable_site.pages["/p2"] = cards([("D one", "/d"), ("E one", "/e"), ("F one", "/f")], prev_href="/p1")
    _recording, result = extract_list(site_runtimes, mutable_site.url("/p1"), "items", ["Title", "URL"])
    assert len(result.rows) == 6
    assert result.stop_reason == "next turned into previous"
    assert mutable_site.requests.count("/p1") == 2  # once to record, once to replay: never looped back


def test_pagination_stops_when_next_repeats_a_page(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/p1"] = cards([("A one", "/a"), ("B one", "/b"), ("C one", "/c")], next_href="/p2")
    mutable_site.pages["/p2"] = cards([("D one", "/d"), ("E one", "/e"), ("F one", "/f")], next_href="/p1")
    _recording, result = extract_list(site_runtimes, mutable_site.url("/p1"), "items", ["Title", "URL"])
    assert len(result.rows) == 6 and result.stop_reason == "next repeats a visited page"


def test_page_cap_bounds_an_endless_list(mutable_site, site_runtimes) -> None:
    for page in range(1, 30):
        mutable_site.pages[f"/p{page}"] = cards(
            [(f"Item {page}-{i}", f"/i/{page}/{i}") for i in range(3)], next_href=f"/p{page + 1}"
        )
    _recording, result = extract_list(
        site_runtimes, mutable_site.url("/p1"), "items", ["Title", "URL"], max_pages=5
    )
    assert result.pages == 5 and len(result.rows) == 15 and result.stop_reason == "page cap (5)"


def test_answer_question_is_the_only_per_row_model_use_and_is_cached(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = cards([("Alpha", "/a"), ("Beta", "/b"), ("Alpha", "/a2")])
    program = ListProgram(
        goal="items",
        start_url=mutable_site.url("/list"),
        columns=["Title", "URL", "Initial"],
        steps=[
            EnterList(elements=["li.item"]),
            SaveText(element=":scope h3", column="Title"),
            SaveLink(element=":scope a", column="URL"),
            AnswerQuestion(element=":scope h3", column="Initial", question="What is the first letter?"),
            ExitList(),
        ],
    )

    def respond(request) -> str:
        text = request.messages[-1].content.split('"""')[1].strip()
        return json.dumps({"answer": text[0]})

    llm = ScriptedLLM(respond)
    result = replay_program(site_runtimes, ListProgram.from_json(program.to_json()), llm=llm)
    assert [row["Initial"] for row in result.rows] == ["A", "B", "A"]
    assert llm.calls == 2 == result.llm_calls


def test_unreachable_detail_pages_are_recorded_not_fatal(mutable_site, site_runtimes) -> None:
    mutable_site.pages["/list"] = cards([("Alpha", "/a"), ("Beta", "/b"), ("Gamma", "/c")])
    for path, author in (("/a", "Ann"), ("/b", "Bob")):
        mutable_site.pages[path] = (
            f"<html><body><main><h1>T</h1><p class='author'>{author}</p></main></body></html>"
        )
    mutable_site.pages["/c"] = mutable_site.pages["/a"]
    recording, _ = extract_list(site_runtimes, mutable_site.url("/list"), "items", ["Title", "Author"])
    del mutable_site.pages["/c"]
    result = replay_program(site_runtimes, recording.program)
    assert [row["Author"] for row in result.rows] == ["Ann", "Bob", ""]
    assert len(result.failures) == 1 and "404" in result.failures[0]["error"]
