"""The development lists ``--tasks`` names, and success reported by task family."""

from __future__ import annotations

import pytest

from scrapesmith.bench.miniwob import (
    CHECK_TASKS,
    DEFAULT_TASKS,
    VISUAL_TASKS,
    WIDGET_TASKS,
    MiniwobUnavailable,
    resolve_tasks,
    summarise,
    task_family,
)

pytest.importorskip("miniwob")


def test_all_dev_names_every_development_list_once_and_every_task_exists():
    every = resolve_tasks(["all-dev"])
    assert len(every) == len(set(every)) == len({*DEFAULT_TASKS, *WIDGET_TASKS, *CHECK_TASKS, *VISUAL_TASKS})
    assert set(every) == {*DEFAULT_TASKS, *WIDGET_TASKS, *CHECK_TASKS, *VISUAL_TASKS}
    assert resolve_tasks(["visual"]) == list(VISUAL_TASKS) and len(VISUAL_TASKS) == 10
    assert resolve_tasks(["check"]) == list(CHECK_TASKS) and len(CHECK_TASKS) == 17
    # the lists are apart: no visual task is in another development list
    assert not set(VISUAL_TASKS) & {*DEFAULT_TASKS, *WIDGET_TASKS, *CHECK_TASKS}


def test_an_unknown_list_or_task_name_is_one_error():
    with pytest.raises(MiniwobUnavailable, match="unknown MiniWoB task"):
        resolve_tasks(["visuals"])


def test_every_development_task_has_a_family_and_the_summary_counts_success_per_family():
    assert {task_family(task) for task in resolve_tasks(["all-dev"])} == {
        "click", "form", "widget", "visual", "mail", "reading"}
    assert task_family("email-inbox-reply") == "mail" and task_family("click-color") == "visual"
    assert task_family("login-user") == "form" and task_family("choose-date-easy") == "widget"
    cases = [{"task": "click-color", "reward": 1.0, "seconds": 1}, {"task": "click-shape", "reward": -1.0, "seconds": 1},
             {"task": "email-inbox", "reward": 0.5, "seconds": 1}]
    families = summarise(cases)["families"]
    assert families == {"visual": {"episodes": 2, "successes": 1, "success_rate": 0.5},
                        "mail": {"episodes": 1, "successes": 1, "success_rate": 1.0}}
