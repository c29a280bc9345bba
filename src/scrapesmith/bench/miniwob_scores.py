"""Scores of a MiniWoB++ run: success and reward per task, per family and overall; the judge against the page's reward;
each decision path's success."""

from __future__ import annotations

from typing import Any

from scrapesmith.bench.miniwob_tasks import FAMILIES, task_family


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
        "perception_errors": sum(case.get("perception_errors", 0) for case in cases),
        "judge_errors": sum(1 for case in cases if case.get("judge_error")),
        **({"workflow_episodes": sum(1 for case in cases if case.get("workflow")),
            "workflow_broken": sum(1 for case in cases if case.get("broken_step") is not None),
            "fallbacks": sum(1 for case in cases if case.get("fallback"))} if any("workflow" in c for c in cases) else {}),
        "seconds": round(sum(case["seconds"] for case in cases), 1),
    }
    summary["paths"] = path_scores(cases)
    summary["families"] = family_scores(cases)
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


def family_scores(cases: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per task family (``miniwob_tasks.task_family``): episodes, successes (reward > 0) and the success rate."""
    scores: dict[str, dict[str, float]] = {}
    for case in cases:
        entry = scores.setdefault(task_family(case["task"]), {"episodes": 0, "successes": 0})
        entry["episodes"] += 1
        entry["successes"] += case["reward"] > 0
    for entry in scores.values():
        entry["success_rate"] = round(entry["successes"] / entry["episodes"], 3)
    return {family: scores[family] for family in FAMILIES if family in scores}
