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
from scrapesmith.bench.miniwob_scores import family_scores, judge_scores, path_scores, summarise
from scrapesmith.bench.miniwob_tasks import (
    CHECK_TASKS,
    DEFAULT_TASKS,
    TASK_LISTS,
    VISUAL_TASKS,
    WIDGET_TASKS,
    MiniwobUnavailable,
    available_tasks,
    miniwob_html_dir,
    resolve_tasks,
    task_family,
)
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
#: What a step's reason says when the page's looks could not be read (``insta.chooser``): counted per episode.
LOOKS_UNREAD = "looks could not be read"
STATE_META = "ss-wob-state"
#: MiniWoB pages are local files that request nothing after they load: the network is called idle after this
#: much quiet (seconds; the browser's default 0.25 s is for real sites), so an action is not followed by a wait
#: for requests that never come. The agent and the workflows run with the same setting.
IDLE_QUIET = 0.05
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
                    perception_errors=sum(1 for step in trajectory.steps if LOOKS_UNREAD in (step.reason or "")),
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


__all__ = [
    "CHECK_TASKS", "DEFAULT_TASKS", "IDLE_QUIET", "TASK_LISTS", "VISUAL_TASKS", "WIDGET_TASKS", "EpisodeState",
    "MiniwobEnv", "MiniwobUnavailable", "available_tasks", "evaluate_miniwob", "family_scores", "judge_scores",
    "miniwob_html_dir", "path_scores", "read_state", "resolve_tasks", "run_miniwob_episode", "serve_miniwob",
    "summarise", "task_family",
]
