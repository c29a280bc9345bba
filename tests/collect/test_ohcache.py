"""OHCache: who receives which message (Eq. 3), formatter rejection and re-ask, cache ids instead of artifacts."""

from __future__ import annotations

import json

import pytest

from scrapesmith.collect.ohcache import (
    ArtifactCache,
    CacheMiss,
    FormatRejected,
    HyperedgeFormatter,
    MessageHypergraph,
)
from scrapesmith.collect.ohcache.hypergraph import RoutingError
from scrapesmith.collect.views import AGENTS, PlanMessage, Role
from scrapesmith.llm import ChatMessage
from scrapesmith.llm.scripted import ScriptedLLM


def test_plan_message_reaches_web_tool_blueprint_and_manager_only():
    graph = MessageHypergraph()
    edge = graph.post(Role.PLAN, "plan", {"steps": ["a"]}, "steps: a")
    assert set(edge.targets) == {Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.MANAGER}
    assert graph.context_for(Role.WEB) == [edge]
    assert graph.context_for(Role.ENGINEER) == []
    assert graph.context_for(Role.PLAN) == []


def test_blueprint_reaches_engineer_and_validation_but_not_web():
    graph = MessageHypergraph()
    graph.post(Role.WEB, "web", {}, "pages")
    blueprint = graph.post(Role.BLUEPRINT, "blueprint", {}, "bp")
    assert graph.context_for(Role.ENGINEER) == [blueprint]
    assert graph.context_for(Role.VALIDATION) == [blueprint]
    assert blueprint not in graph.context_for(Role.WEB)


def test_context_holds_only_messages_sent_before_time_t_in_order():
    graph = MessageHypergraph()
    first = graph.post(Role.ENGINEER, "program", {}, "v1")
    second = graph.post(Role.ENGINEER, "program", {}, "v2")
    assert graph.context_for(Role.TEST) == [first, second]
    assert graph.context_for(Role.TEST, before=1) == [first]
    assert graph.latest(Role.TEST, "program") == second


def test_cache_announcement_reaches_every_agent():
    edge = MessageHypergraph().post(Role.CACHE, "artifact", {}, "cache://x")
    assert set(edge.targets) == set(AGENTS)


def test_broadcast_ablation_delivers_every_message_to_every_other_agent():
    graph = MessageHypergraph(broadcast=True)
    graph.post(Role.WEB, "web", {}, "pages")
    assert all(len(graph.context_for(role)) == 1 for role in AGENTS if role is not Role.WEB)


def test_sender_cannot_be_its_own_target():
    with pytest.raises(RoutingError):
        MessageHypergraph().post(Role.TEST, "x", {}, "x", targets={Role.TEST})


def test_messages_jsonl_keeps_every_hyperedge(tmp_path):
    graph = MessageHypergraph()
    graph.post(Role.PLAN, "plan", {"steps": ["a"]}, "a")
    graph.post(Role.TEST, "test", {"ok": True}, "ok")
    lines = graph.save_jsonl(tmp_path / "messages.jsonl").read_text().splitlines()
    assert [json.loads(line)["sender"] for line in lines] == ["plan", "test"]


def _chat() -> list[ChatMessage]:
    return [ChatMessage(role="user", content="plan the collection")]


def test_formatter_rejects_free_text_and_re_asks_until_json():
    replies = iter(["Sure! First fetch the page, then save rows.",
                    '{"steps": ["open the list"], "columns": ["title"]}'])
    llm = ScriptedLLM(lambda request: next(replies))
    formatter = HyperedgeFormatter()
    plan = formatter.ask(llm, _chat(), PlanMessage, stage="collect.plan")
    assert plan == PlanMessage(steps=["open the list"], columns=["title"])
    assert formatter.rejections == 1
    assert "Rejected by the message formatter" in llm.requests[1].messages[-1].content
    assert llm.requests[0].json_schema is not None


def test_formatter_gives_up_after_its_re_asks():
    llm = ScriptedLLM(lambda request: "no json here")
    with pytest.raises(FormatRejected):
        HyperedgeFormatter(max_reasks=2).ask(llm, _chat(), PlanMessage, stage="collect.plan")
    assert llm.calls == 3


def test_no_formatter_ablation_accepts_prose_once_and_sends_prose():
    llm = ScriptedLLM(lambda request: "I think we should open the page.")
    formatter = HyperedgeFormatter(enabled=False)
    assert formatter.ask(llm, _chat(), PlanMessage, stage="collect.plan") is None
    assert llm.calls == 1
    _data, text = formatter.format(Role.PLAN, PlanMessage(steps=["a"], columns=["title"]))
    assert text.startswith("Hello team")


def test_formatter_validates_outgoing_messages_against_the_role_schema():
    with pytest.raises(ValueError):
        HyperedgeFormatter().format(Role.PLAN, {"steps": []})


def test_cache_stores_an_artifact_once_and_messages_carry_its_id(tmp_path):
    cache = ArtifactCache(tmp_path)
    html = "<html>" + "x" * 5000 + "</html>"
    first, second = cache.put("page", html), cache.put("page", html)
    assert first == second
    assert len(list(tmp_path.iterdir())) == 1
    assert cache.mention(first) == f"cache://{first}"
    assert cache.get(cache.mention(first)) == html


def test_no_cache_ablation_inlines_the_artifact(tmp_path):
    cache = ArtifactCache(tmp_path, inline=True)
    artifact = cache.put("page", "<p>body</p>")
    assert "<p>body</p>" in cache.mention(artifact)


def test_unknown_cache_id_is_a_clear_miss(tmp_path):
    with pytest.raises(CacheMiss):
        ArtifactCache(tmp_path).get("cache://deadbeef0000")
