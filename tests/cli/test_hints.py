"""The command line adds the flag that answers a service's error (``cli/hints.py``); the service never does.

Each case is an error as a service raises it, and the line the command line prints for it.
"""

from __future__ import annotations

import pickle

import pytest

from scrapesmith.bench.swde import SwdeDataMissing
from scrapesmith.cli.hints import explain
from scrapesmith.collect.agents import NoStartingPoint
from scrapesmith.collect.program import HostsNotAllowed, ReadRootsNotGranted
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta.export import PiiScrubberMissing
from scrapesmith.lists.pages import NotScalable
from scrapesmith.lists.record import NoListFound
from scrapesmith.lists.runtime import NeedsBrowser
from scrapesmith.llm import ModelNotInstalled, NoModelConfigured, UnknownModelSetting
from scrapesmith.scale.manifest import EarlierRunUnusable, ResumeMismatch, UnfinishedRun
from scrapesmith.web.page import PrivateAddress, RobotsDisallowed


@pytest.mark.parametrize(("error", "line"), [
    (RobotsDisallowed("http://a/x", "robots.txt disallows fetching this URL"),
     "http://a/x: robots.txt disallows fetching this URL; pass --no-robots to ignore it"),
    (PrivateAddress("http://10.0.0.1/", "10.0.0.1", "10.0.0.1 is a private or local address"),
     "http://10.0.0.1/: 10.0.0.1 is a private or local address (--allow-host 10.0.0.1)"),
    (NoModelConfigured("induce needs a language model"),
     "induce needs a language model; set SCRAPESMITH_LLM or pass --llm (e.g. local, openai:<model>)"),
    (UnknownModelSetting("unknown model setting 'gpt4'"), "unknown model setting 'gpt4' (in SCRAPESMITH_LLM or --llm)"),
    (ModelNotInstalled("0.5b", "the embedded 0.5b model is not installed"),
     "the embedded 0.5b model is not installed: run 'scrapesmith llm install --size 0.5b'"),
    (NeedsBrowser("cannot click <span> over HTTP"), "cannot click <span> over HTTP; use --runtime browser"),
    (NoListFound("no repeating list found on http://a/", drawn_by_scripts=True),
     "no repeating list found on http://a/; try --runtime browser"),
    (NoListFound("no list on http://a/: the page has no text"), "no list on http://a/: the page has no text"),
    (NotScalable("replay it one start page at a time"), "replay it one start page at a time with --start-url"),
    (NoStartingPoint("no start URL"), "no start URL (--from)"),
    (HostsNotAllowed(["a:80", "b"], "p declares ALLOW_HOSTS a:80, b"),
     "p declares ALLOW_HOSTS a:80, b: pass --allow-host a:80 --allow-host b if you trust them"),
    (ReadRootsNotGranted(["/my pages"], "p declares READ_ROOTS /my pages"),
     "p declares READ_ROOTS /my pages: pass --allow-read '/my pages' if you trust it to read them"),
    (PiiScrubberMissing("PII scrubbing needs scrubadub"), "PII scrubbing needs scrubadub (or pass --no-scrub-pii)"),
    (UnfinishedRun("out.run holds an unfinished run"), "out.run holds an unfinished run (--resume continues it)"),
    (ResumeMismatch("the URL list changed"),
     "the URL list changed; without --resume, start a new run (or one --since this run)"),
    (EarlierRunUnusable("old.run: no run there"), "--since old.run: no run there"),
    (SwdeDataMissing("SWDE data not found"), "SWDE data not found; pass --pages DIR (and --groundtruth DIR)"),
    (ScrapesmithError("first line\nsecond line"), "first line"),
])
def test_the_command_line_adds_the_flag_that_answers_the_error(error: ScrapesmithError, line: str) -> None:
    assert explain(error) == line



@pytest.mark.parametrize("error", [
    RobotsDisallowed("http://a/x", "robots.txt disallows fetching this URL"),
    PrivateAddress("http://10.0.0.1/", "10.0.0.1", "10.0.0.1 is a private or local address"),
    ModelNotInstalled("0.5b", "the embedded 0.5b model is not installed"),
    HostsNotAllowed(["a:80"], "p declares ALLOW_HOSTS a:80"),
    ReadRootsNotGranted(["/pages"], "p declares READ_ROOTS /pages"),
])
def test_an_error_carrying_what_the_hint_needs_crosses_a_process_pool(error: ScrapesmithError) -> None:
    """A worker's error is pickled back to the parent: it must come back whole, or the pool breaks."""
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error) and explain(copy) == explain(error)
