"""MiniWoB++ evaluation of the InSTA agent in our browser environment (``scrapesmith bench miniwob``).

The task pages ship in the ``miniwob`` package (``miniwob/html/miniwob/*.html``); their own JavaScript
computes the reward. We serve that directory on 127.0.0.1 (the browser runtime only navigates http(s)
URLs, under the same address guard as everything else) and append one small script to each task page:
it lengthens ``core.EPISODE_MAX_TIME`` (a local model needs minutes, not MiniWoB's 10 s), seeds the
task's RNG from ``?seed=N``, hides MiniWoB's reward sidebar (it prints the last reward, which the
agent and the judge must not see), and after ``core.startEpisodeReal``/``core.endEpisode`` copies
``WOB_DONE_GLOBAL`` and ``WOB_RAW_REWARD_GLOBAL`` into a ``<meta name="ss-wob-state">`` element, where
the environment reads them from the page. An episode starts by seeding the RNG with its seed and calling
``core.startEpisodeReal`` (what the START cover's click calls). The next episode of the same task reuses the
page: it is reseeded and started in place, as MiniWoB's own Gym environment does, instead of being loaded again
(a load is most of a scripted episode's time); the seed alone decides the problem, so an episode started in place
is the one a fresh load of ``?seed=N`` gives — except on pages whose widgets keep an ARIA value across problems
(sliders, spin buttons), which are loaded afresh (``STATEFUL_WIDGET``). No Selenium, no Gym wrapper.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from scrapesmith.bench.frame import BenchResult, save_json
from scrapesmith.dom import parse_html
from scrapesmith.errors import ScrapesmithError
from scrapesmith.insta import (
    Action,
    BrowserEnv,
    Observation,
    Policy,
    ResultStore,
    SiteResult,
    StepOutcome,
    Trajectory,
    run_episode,
)
from scrapesmith.insta.workflow import compile_run
from scrapesmith.report import write_report

EPISODE_MAX_MS = 3_600_000
STATE_META = "ss-wob-state"
#: MiniWoB pages are local files that request nothing after they load: the network is called idle after this
#: much quiet (seconds; the browser's default 0.25 s is for real sites), so an action is not followed by a wait
#: for requests that never come. The agent and the workflows run with the same setting.
IDLE_QUIET = 0.05
#: 45 tasks our action set (click, fill, select, check, hover, scroll) can solve; drag/canvas tasks left out.
DEFAULT_TASKS = (
    "click-button", "click-button-sequence", "click-checkboxes", "click-checkboxes-soft",
    "click-checkboxes-large", "click-checkboxes-transfer", "click-collapsible", "click-collapsible-nodelay",
    "click-collapsible-2-nodelay", "click-dialog", "click-dialog-2", "click-link", "click-option",
    "click-tab", "click-tab-2-easy", "click-tab-2", "click-test", "click-test-2", "click-test-transfer",
    "click-widget", "click-menu-2", "choose-list", "enter-password", "enter-text", "enter-text-2",
    "enter-text-dynamic", "focus-text", "focus-text-2", "login-user", "login-user-popup", "multi-layouts",
    "multi-orderings", "navigate-tree", "read-table", "read-table-2", "simple-algebra", "simple-arithmetic",
    "social-media", "social-media-some", "social-media-all", "email-inbox", "email-inbox-delete",
    "search-engine", "unicode-test", "use-autocomplete-nodelay",
)
#: A second development list (issue 35): widgets (date pickers, sliders, a spinner, a custom dropdown, a text area to
#: scroll), read-then-act (text to copy, numbers to classify, feedback to follow) and multi-step mail and form flows.
WIDGET_TASKS = (
    "choose-date", "choose-date-medium", "choose-date-nodelay", "use-slider", "use-slider-2", "use-spinner",
    "copy-paste-2", "form-sequence-3", "email-inbox-forward", "email-inbox-star-reply", "email-inbox-nl-turk",
    "email-inbox-forward-nl-turk", "book-flight", "guess-number", "scroll-text-2", "odd-or-even",
)
#: Names ``--tasks`` takes for a whole list.
TASK_LISTS = {"default": DEFAULT_TASKS, "widget": WIDGET_TASKS}

HOOK = """<script>(function () {
  var meta = document.createElement('meta'); meta.name = '%(meta)s'; document.head.appendChild(meta);
  var started = false, starts = 0;
  function publish() {
    meta.setAttribute('content', JSON.stringify({done: !!WOB_DONE_GLOBAL, raw_reward: WOB_RAW_REWARD_GLOBAL,
      reward: WOB_REWARD_GLOBAL, reason: WOB_REWARD_REASON == null ? null : String(WOB_REWARD_REASON),
      started: started, starts: starts, utterance: started ? core.getUtterance() : ''}));
  }
  core.EPISODE_MAX_TIME = %(max_ms)d;
  // MiniWoB's sidebar shows the last reward: hide it, or the agent and the judge would read the answer
  var createDisplay = core.createDisplay;
  core.createDisplay = function () { createDisplay.apply(this, arguments); core.hideDisplay(); };
  if (document.getElementById('reward-display')) { core.hideDisplay(); }
  var seed = new URLSearchParams(location.search).get('seed');
  document.querySelectorAll('[data-ss-readout]').forEach((el) => el.removeAttribute('data-ss-readout'));
  if (seed !== null && Math.seedrandom) { Math.seedrandom(seed); }
  var start = core.startEpisodeReal;
  core.startEpisodeReal = function () { start.apply(this, arguments); started = true; starts++; publish(); };
  var end = core.endEpisode;
  core.endEpisode = function () { end.apply(this, arguments); publish(); };
  publish();
})();</script>"""


#: Starts an episode: the seed (``?seed=N``, a string, as the hook's load-time seeding reads it) decides the problem.
#: Returns how many episodes the page had started before, so the start is checked by the page's own counter. The
#: marks our widget driver left on the page's numbers (``data-ss-readout``) go: the next episode's numbers are new.
START_JS = """(seed) => {
  var meta = document.querySelector('meta[name="STATE_META"]');
  var before = meta ? (JSON.parse(meta.getAttribute('content') || '{}').starts || 0) : 0;
  document.querySelectorAll('[data-ss-readout]').forEach((el) => el.removeAttribute('data-ss-readout'));
  if (seed !== null && Math.seedrandom) { Math.seedrandom(seed); }
  core.startEpisodeReal();
  return before;
}""".replace("STATE_META", STATE_META)


#: A page whose widgets carry an ARIA value (sliders, spin buttons) is loaded afresh for every episode: such a widget
#: keeps its ``aria-valuenow`` when the task regenerates its problem in place (the field shows 0, the widget says 5),
#: so an episode started in place would not be the one a fresh load gives.
STATEFUL_WIDGET = "aria-valuenow"


class MiniwobUnavailable(ScrapesmithError):
    """The ``miniwob`` package (``bench`` extra) is not installed, or a task name is unknown."""


def miniwob_html_dir() -> Path:
    try:
        import miniwob
    except ImportError:
        raise MiniwobUnavailable("MiniWoB++ needs the miniwob package: pip install 'scrapesmith[bench]'") from None
    return Path(miniwob.__file__).parent / "html"


def available_tasks() -> list[str]:
    return sorted(path.stem for path in (miniwob_html_dir() / "miniwob").glob("*.html"))


def resolve_tasks(names: list[str] | None) -> list[str]:
    """Task names as given; ``all``; or a list's name (``default``, ``widget``) in their place."""
    if not names:
        return list(DEFAULT_TASKS)
    if names == ["all"]:
        return available_tasks()
    names = [task for name in names for task in TASK_LISTS.get(name, (name,))]
    known = set(available_tasks())
    unknown = [name for name in names if name not in known]
    if unknown:
        raise MiniwobUnavailable(f"unknown MiniWoB task(s): {', '.join(unknown)}")
    return names


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return

    def send_head(self):  # type: ignore[override]
        path = self.translate_path(self.path)
        if not (path.endswith(".html") and "/miniwob/" in path and Path(path).is_file()):
            return super().send_head()
        body = Path(path).read_text(encoding="utf-8")
        hook = HOOK % {"meta": STATE_META, "max_ms": EPISODE_MAX_MS}
        body = body.replace("</body>", hook + "</body>") if "</body>" in body else body + hook
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        import io

        return io.BytesIO(data)


@contextmanager
def serve_miniwob() -> Iterator[str]:
    """Serve the MiniWoB++ pages on 127.0.0.1; yields the base URL of the task pages."""
    handler = partial(_Handler, directory=str(miniwob_html_dir()))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/miniwob"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class EpisodeState:
    done: bool = False
    raw_reward: float = 0.0
    started: bool = False
    utterance: str = ""
    reason: str | None = None
    starts: int = 0  # episodes started on this page load (one more after each in-place reset)


def read_state(html: str) -> EpisodeState:
    tree = parse_html(html)
    content = tree.xpath(f"string(//meta[@name='{STATE_META}']/@content)")
    if not content:
        return EpisodeState()
    data = json.loads(content)
    utterance = data.get("utterance") or ""
    if isinstance(utterance, dict):  # tasks with natural-language variants add the answer's fields: never shown
        utterance = utterance.get("utterance") or ""
    return EpisodeState(done=bool(data.get("done")), raw_reward=float(data.get("raw_reward") or 0.0),
                        started=bool(data.get("started")), utterance=str(utterance), reason=data.get("reason"),
                        starts=int(data.get("starts") or 0))


class MiniwobEnv(BrowserEnv):
    """A :class:`BrowserEnv` on a MiniWoB++ page: reset starts an episode, steps report ``done``."""

    def __init__(self, browser: Any, max_tokens: int = 2048, run_dir: Path | None = None,
                 reuse_page: bool = True) -> None:
        """``reuse_page`` off loads the task page for every episode (the harness before issue 31c)."""
        super().__init__(browser, max_tokens, relative_to=run_dir)
        self.run_dir = run_dir
        self.reuse_page = reuse_page
        self.state = EpisodeState()

    def start_episode(self, name: str) -> None:
        """Save this episode's screenshots under ``RUN_DIR/screenshots/<name>/`` (nothing without a run dir)."""
        self.record_screenshots(self.run_dir / "screenshots" / name if self.run_dir else None)

    def reset(self, url: str) -> Observation:
        """Start the episode of ``url`` (``TASK.html?seed=N``): seed the page's RNG and call what the START cover's
        click calls. A page already showing that task is reused (started in place); another is loaded first.
        The start is checked, not waited for: the page's own counter of started episodes must have moved."""
        page, _, query = url.partition("?")
        seed = parse_qs(query).get("seed", [None])[0]
        in_place = self.reuse_page and self._current_page() == page and STATEFUL_WIDGET not in self.last_html
        if not in_place:
            self.browser.goto(url)
        try:
            before = self.browser.evaluate(START_JS, seed)
        except ScrapesmithError:
            if not in_place:
                raise
            self.browser.goto(url)  # the page the last episode left is broken: a fresh one
            before = self.browser.evaluate(START_JS, seed)
        observation = self.observe()
        self.state = read_state(self.last_html)
        if not self.state.started or self.state.starts <= int(before or 0):
            raise MiniwobUnavailable(f"the MiniWoB episode did not start on {url}")
        return observation

    def _current_page(self) -> str:
        return str(getattr(self.browser, "url", "") or "").partition("?")[0]

    def step(self, action: Action) -> StepOutcome:
        outcome = super().step(action)
        self.state = read_state(self.last_html)
        outcome.done = self.state.done
        return outcome


PolicyFactory = Callable[[MiniwobEnv], Policy]


def run_miniwob_episode(env: MiniwobEnv, policy: Policy, base_url: str, task: str, seed: int,
                        max_actions: int = 10, wall_time: float | None = None) -> tuple[Trajectory, EpisodeState]:
    url = f"{base_url}/{task}.html?seed={seed}"
    env.start_episode(f"{task}-{seed}")
    observation = env.reset(url)
    trajectory = run_episode(env, policy, env.state.utterance, url, max_actions=max_actions,
                             wall_time=wall_time, first_observation=observation)
    return trajectory, env.state


def evaluate_miniwob(
    session: Any,
    policy_factory: PolicyFactory,
    tasks: list[str],
    episodes: int = 1,
    seed: int = 0,
    max_actions: int = 10,
    wall_time: float | None = None,
    judge: Any | None = None,
    on_case: Callable[[dict[str, Any]], None] | None = None,
    partial_json: Path | None = None,
    run_dir: Path | None = None,
    screenshots: bool = True,
    compile_workflows: bool = False,
) -> BenchResult:
    """Run ``episodes`` episodes per task; mean raw reward per task and overall, judge agreement if judged.

    With ``partial_json`` the cases so far are saved there after every episode: slow local models make a
    run long, and a run stopped half-way keeps what finished. With ``run_dir`` every episode is also
    stored as an insta result (``shards/``, a PNG per step unless ``screenshots`` is off) and
    ``report.html`` there is the trajectory viewer; with ``compile_workflows`` too, the episodes the judge
    verified are compiled into ``RUN_DIR/workflows/`` first (``insta.workflow``), and the report lists them.
    """
    cases: list[dict[str, Any]] = []
    store = ResultStore(run_dir) if run_dir is not None else None
    env = MiniwobEnv(session, run_dir=run_dir if screenshots else None)
    policy = policy_factory(env)
    with serve_miniwob() as base_url:
        for task in tasks:
            for episode in range(episodes):
                cases.append(_one_case(env, policy, base_url, task, seed + episode, max_actions, wall_time, judge,
                                       store))
                if partial_json is not None:
                    save_json(BenchResult(name="miniwob", summary=summarise(cases), cases=cases,
                                          params={"partial": True, "tasks": tasks}), partial_json)
                if on_case is not None:
                    on_case(cases[-1])
    params: dict[str, Any] = {"tasks": tasks, "episodes": episodes, "seed": seed, "max_actions": max_actions}
    if run_dir is not None and compile_workflows:
        compiled, paths = compile_run(run_dir)
        params["workflows"] = {"written": len(paths), "episodes": compiled.episodes, "compiled": compiled.compiled,
                               "skipped": compiled.skipped, "no_workflow": compiled.uncovered()}
    if run_dir is not None:
        write_report(run_dir)
    return BenchResult(name="miniwob", summary=summarise(cases), cases=cases, params=params)


def _one_case(env: MiniwobEnv, policy: Policy, base_url: str, task: str, seed: int, max_actions: int,
              wall_time: float | None, judge: Any | None, store: ResultStore | None = None) -> dict[str, Any]:
    started = time.monotonic()
    case: dict[str, Any] = {"task": task, "seed": seed}
    record = SiteResult(site=f"{task} seed {seed}", url=f"{base_url}/{task}.html?seed={seed}", status="failed")
    try:
        trajectory, state = run_miniwob_episode(env, policy, base_url, task, seed, max_actions, wall_time)
        record.status, record.trajectory = "ok", trajectory
        case.update(reward=state.raw_reward if state.done else 0.0, done=state.done,
                    steps=len(trajectory.steps), invalid_steps=trajectory.invalid_steps,
                    asked_steps=sum(1 for step in trajectory.steps if step.asked),
                    paths=[step.path for step in trajectory.steps if step.path],
                    confidence=[step.confidence for step in trajectory.steps if step.confidence is not None],
                    stop_reason=trajectory.stop_reason, utterance=trajectory.task,
                    policy_seconds=round(trajectory.seconds, 2),  # the policy's steps alone: no page load, no judge
                    actions=[step.action.model_dump() if step.action else {"invalid": step.error}
                             for step in trajectory.steps])
        if hasattr(policy, "report"):  # a workflow: which one ran, which step broke, whether the agent took over
            case.update(policy.report())
        if judge is not None:
            try:
                judged = judge.judge(trajectory.task, trajectory)
            except ScrapesmithError as exc:  # the episode and its reward stand; the judge's failure is counted
                case["judge_error"] = str(exc).splitlines()[0]
            else:
                record.judgement = judged
                case.update(judge_success=judged.success, judge_confidence=judged.confidence,
                            judge_kind=judged.kind)
    except ScrapesmithError as exc:
        case.update(reward=0.0, done=False, steps=0, error=str(exc).splitlines()[0])
        record.error = case["error"]
    case["seconds"] = record.seconds = round(time.monotonic() - started, 2)
    if store is not None:
        store.append(record)
    return case


def summarise(cases: list[dict[str, Any]]) -> dict[str, Any]:
    by_task: dict[str, list[float]] = {}
    for case in cases:
        by_task.setdefault(case["task"], []).append(case["reward"])
    task_means = {task: sum(values) / len(values) for task, values in by_task.items()}
    summary: dict[str, Any] = {
        "tasks": len(by_task),
        "episodes": len(cases),
        "mean_reward": sum(task_means.values()) / len(task_means) if task_means else 0.0,
        "success_rate": sum(1 for case in cases if case["reward"] > 0) / len(cases) if cases else 0.0,
        "steps": sum(case.get("steps", 0) for case in cases),
        "invalid_steps": sum(case.get("invalid_steps", 0) for case in cases),
        "asked_steps": sum(case.get("asked_steps", 0) for case in cases),
        "errors": sum(1 for case in cases if case.get("error")),
        "judge_errors": sum(1 for case in cases if case.get("judge_error")),
        **({"workflow_episodes": sum(1 for case in cases if case.get("workflow")),
            "workflow_broken": sum(1 for case in cases if case.get("broken_step") is not None),
            "fallbacks": sum(1 for case in cases if case.get("fallback"))} if any("workflow" in c for c in cases) else {}),
        "seconds": round(sum(case["seconds"] for case in cases), 1),
    }
    summary["paths"] = path_scores(cases)
    judged = [case for case in cases if "judge_success" in case]
    if judged:
        agree = [(case["judge_success"] > 0.5) == (case["reward"] > 0) for case in judged]
        confident = [a for a, case in zip(agree, judged, strict=True) if case["judge_confidence"] >= 0.999]
        summary["judge_accuracy"] = sum(agree) / len(agree)
        summary["judge_accuracy_conf1"] = sum(confident) / len(confident) if confident else float("nan")
        summary["judged"] = len(judged)
        summary.update(judge_scores([case["judge_success"] > 0.5 for case in judged],
                                    [case["reward"] > 0 for case in judged]))
    return summary


def judge_scores(said: list[bool], true: list[bool]) -> dict[str, float]:
    """Precision and recall of the judge's "success" against the true reward, and balanced accuracy (the
    mean of the recalls of success and of failure). Precision decides what ``insta export`` keeps; an
    undefined ratio (no success said, or none true) is NaN."""
    pairs = list(zip(said, true, strict=True))
    tp = sum(1 for s, t in pairs if s and t)
    fp = sum(1 for s, t in pairs if s and not t)
    fn = sum(1 for s, t in pairs if not s and t)
    tn = sum(1 for s, t in pairs if not s and not t)
    nan = float("nan")
    recall = tp / (tp + fn) if tp + fn else nan
    specificity = tn / (tn + fp) if tn + fp else nan
    return {"judge_precision": tp / (tp + fp) if tp + fp else nan, "judge_recall": recall,
            "judge_specificity": specificity,
            "judge_balanced_accuracy": (recall + specificity) / 2 if tp + fn and tn + fp else nan,
            "judge_tp": tp, "judge_fp": fp, "judge_fn": fn, "judge_tn": tn}


def path_scores(cases: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per decision path (``Step.path``: program, model:tie, model:unsure, …): how many steps took it, in how
    many episodes, and the success rate of those episodes (an episode with several paths counts for each)."""
    scores: dict[str, dict[str, float]] = {}
    for case in cases:
        for path in set(case.get("paths") or []):
            entry = scores.setdefault(path, {"steps": 0, "episodes": 0, "successes": 0})
            entry["episodes"] += 1
            entry["successes"] += case["reward"] > 0
        for path in case.get("paths") or []:
            scores[path]["steps"] += 1
    for entry in scores.values():
        entry["success_rate"] = round(entry["successes"] / entry["episodes"], 3)
    return dict(sorted(scores.items()))
