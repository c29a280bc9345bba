"""A scripted model for the end-to-end tests: control flow only, every answer read off its prompt.

As the safety filter it describes every site as a bookshop, except a site whose label holds ``login_on``, which
it calls a social network (the pages read must then lift that refusal); as the proposer it
chooses the first task offered (asked for several: the first one twice, then the next ones); as the chooser asked for an answer it copies, from the current page's
markdown, the text after the label the task asks for ("What is the ISBN-13 of ..." -> the line holding
"ISBN-13", or the next line when the label stands alone). Anything else: the first candidate.
"""

from __future__ import annotations

import json
import re

from scrapesmith.llm.scripted import ScriptedLLM
from scrapesmith.llm.views import LLMRequest


def _read_answer(user: str) -> str:
    task = user.split("## Task", 1)[1].split("##", 1)[0]
    asked = re.search(r"What is the (.+?) of ", task)
    page = user.split("## Current Webpage:", 1)[1].split("## Candidate Actions", 1)[0]
    if not asked:
        return ""
    label = asked.group(1)
    lines = [re.sub(r"\[id: \d+\]", "", line) for line in page.splitlines() if line.strip()]
    for number, line in enumerate(lines):
        if label.casefold() in line.casefold():
            rest = line[line.casefold().index(label.casefold()) + len(label):].strip(" *:|\t")
            return rest or (lines[number + 1].strip(" *:|\t") if number + 1 < len(lines) else "")
    return ""


def respond(request: LLMRequest, login_on: str = "") -> str:
    user = request.messages[-1].content
    if request.stage == "insta.safety":
        site = user.split("Domain: '", 1)[1].split("'", 1)[0] if "Domain: '" in user else ""
        if login_on and login_on in site:
            return json.dumps({"what": "a social network where members chat", "kind": "social_network"})
        return json.dumps({"what": "an online bookshop", "kind": "shop"})
    if request.stage == "insta.propose":
        many = re.search(r"Choose (\d+) different tasks", user)
        if many:  # several tasks: the first one twice (a duplicate, to be rejected), then the next ones
            count = int(many.group(1))
            ids = ["t1", "t1", *(f"t{n}" for n in range(2, count))][:count]
            return json.dumps({"reason": "readers would ask these"} | {f"task{n}": i for n, i in enumerate(ids, 1)})
        return json.dumps({"reason": "a reader would ask this", "task": "t1"})
    if request.stage == "insta.choose":
        ids = re.findall(r"^(c\d+): (.*)$", user.split("## Candidate Actions", 1)[1], re.MULTILINE)
        stop = next((key for key, text in ids if text.startswith("stop")), None)
        if stop is not None and len(ids) == 1:
            return json.dumps({"reason": "the page shows it", "candidate": stop, "value": _read_answer(user)})
        return json.dumps({"reason": "first", "candidate": ids[0][0]})
    raise AssertionError(f"unexpected stage {request.stage}")


def make_llm(login_on: str = "") -> ScriptedLLM:
    return ScriptedLLM(lambda request: respond(request, login_on))
