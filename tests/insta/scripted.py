"""A scripted model for pipeline tests, importable by spawned pool workers and Ray workers.

It plays every role by reading the prompt the way a model would have to: asked by the safety filter, it
describes sites whose label contains ``unsafe_on`` as extremist forums (as a judge, calls them unsafe), the
agent (the seed's, or the candidate chooser) clicks the first "Blog link" it sees and then stops, the judge
(scores, or evidence checks quoting the blog page's heading) calls a trajectory that reached a blog page a
success. As the proposer it writes "Find the latest blog post." (free form; N/A for ``unsafe_on``) and, offered
the program's tasks, chooses the first that opens "Blog". ``kill_on`` makes the worker process die when
the proposer is asked about that site, to test crash recovery and resume.
"""

from __future__ import annotations

import json
import os
import re
from functools import partial

from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest


def _fenced(payload: dict) -> str:
    return "Reasoning about the page.\n```json\n" + json.dumps(payload) + "\n```"


def respond(request: LLMRequest, kill_on: str | None = None, unsafe_on: str = "/stocks") -> str:
    if request.stage == "insta.safety" and "Domain: '" in request.messages[-1].content:
        unsafe = unsafe_on in request.messages[-1].content.split("Domain: '", 1)[1].split("'", 1)[0]
        return json.dumps({"what": "a forum of extremist hate speech" if unsafe else "a company's website",
                           "kind": "hate_forum" if unsafe else "company"})
    if request.stage == "insta.safety":
        prompt = request.messages[-1].content
        unsafe = unsafe_on in prompt.split("Site: ", 1)[1].splitlines()[0]
        return json.dumps({"category": "harmful" if unsafe else "safe", "unsafe": unsafe,
                           "reason": f"the site {'is' if unsafe else 'is not'} under {unsafe_on!r}"})
    user = request.messages[1].content
    if request.stage == "insta.propose":
        if kill_on and kill_on in user:
            os._exit(17)
        if "## Tasks" in user:  # the choice among the program's tasks: one that goes to the blog, else the first
            tasks = re.findall(r"^(t\d+): (.*)$", user, re.MULTILINE)
            blog = next((key for key, task in tasks if '"Blog"' in task), tasks[0][0])
            return json.dumps({"reason": "readers want the blog", "task": blog})
        return "N/A" if unsafe_on in user else "Find the latest blog post."
    if request.stage == "insta.agent":
        page = user.split("## Current Webpage:", 1)[1]
        blog = re.search(r"\[id: (\d+)\] Blog link", page)
        if "/blog" not in page.splitlines()[0] and blog:
            return _fenced({"action_key": "click", "action_kwargs": {}, "target_element_id": int(blog.group(1))})
        return _fenced({"action_key": "stop", "action_kwargs": {"answer": "found the blog"}, "target_element_id": None})
    if request.stage == "insta.choose":
        page = user.split("## Current Webpage:", 1)[1]
        lines = [line for line in user.split("## Candidate Actions", 1)[1].splitlines() if re.match(r"c\d+: ", line)]
        blog = next((line for line in lines if '"Blog" link' in line), None)
        if "/blog" not in page.splitlines()[0] and blog:
            return json.dumps({"reason": "the blog holds the posts", "candidate": blog.split(":")[0]})
        return json.dumps({"reason": "on the blog", "candidate": lines[-1].split(":")[0], "value": "found the blog"})
    if request.stage == "insta.check":
        log = user.split("## Action Log", 1)[1].split("## Final Webpage", 1)[0]
        page = user.split("## Final Webpage", 1)[1].split("## Criteria", 1)[0].splitlines()[1:]
        holds = '"Blog" link' in log
        quote = next((line.strip("# ").strip() for line in page if "Blog" in line), "") if holds else ""
        return json.dumps({key: {"evidence": quote, "holds": holds} for key in request.json_schema["required"]})
    if request.stage == "insta.judge":
        success = 1.0 if "/blog" in user.split("### Final Webpage:", 1)[-1].splitlines()[0] else 0.0
        return _fenced({"success": success, "efficiency": 0.9, "self_correction": 0.0})
    return _fenced({"proposed_task": "Who wrote the oldest blog post?", "steps": ["Open the blog"],
                    "criteria": ["Names the author"]})


def make_llm(kill_on: str | None = None) -> ScriptedLLM:
    return ScriptedLLM(partial(respond, kill_on=kill_on))


def llm_factory(kill_on: str | None = None):
    """A picklable zero-argument factory, as the pipeline's workers expect."""
    return partial(make_llm, kill_on)
