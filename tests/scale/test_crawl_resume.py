"""``crawl --resume``: a crawl killed midway goes on from its journal, fetching no page twice."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter

from .conftest import ENV, command, scrapesmith

FOLLOW = ("--follow", "ul.menu a, a.title", "--max-depth", "2", "--max-pages", "60", "--delay", "0",
          "--allow-host", "127.0.0.1")


def test_a_crawl_killed_midway_resumes_to_the_same_url_list(tmp_path, slow_shop):
    start = slow_shop.url(0).replace("/item/0", "/category/0")
    whole = scrapesmith("crawl", start, *FOLLOW, "-o", "whole.txt", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    slow_shop.site.log.clear()

    process = subprocess.Popen(command("crawl", start, *FOLLOW, "-o", "urls.txt"), cwd=tmp_path, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    journal = tmp_path / "urls.run" / "crawl.jsonl"
    deadline = time.monotonic() + 60
    while not journal.exists() or journal.read_text().count("\n") < 20:
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()

    again = scrapesmith("crawl", start, *FOLLOW, "-o", "urls.txt", cwd=tmp_path)
    assert again.returncode == 1 and "unfinished crawl: pass --resume" in again.stderr
    resumed = scrapesmith("crawl", start, *FOLLOW, "-o", "urls.txt", "--resume", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "urls.txt").read_text() == (tmp_path / "whole.txt").read_text()
    assert not journal.parent.exists()
    fetched = Counter(target for _when, target in slow_shop.site.log if target != "/robots.txt")
    assert len(fetched) == 60 and sum(fetched.values()) <= 61  # at most the page in flight at the kill
