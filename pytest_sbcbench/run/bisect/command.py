"""``sbcbench bisect``: a new bisect or ``--resume``, Ctrl-C, the stops, the result document.

Exit codes: 0 a culprit named (confirmed against its parent); 1 no culprit (the ends do not
differ, skips leave several commits, or the confirmation failed: the reason is named);
2 interrupted (Ctrl-C; ``--resume`` continues) or unusable arguments; 3 stopped at a commit
that could not be built or measured (named, with the last lines; ``--resume`` retries it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...errors import SbcBenchError
from .git import Git, GitBisector
from .procedure import BisectOutcome, BisectPlan, BisectStopped, Procedure, Say
from .state import State, load
from .suite import SuiteBench

RESULT_SCHEMA = "sbcbench-bisect/1"
FOUND, UNDECIDED, INTERRUPTED, STOPPED = 0, 1, 2, 3
LOG_FILE = "bisect.log"


class BisectArgsError(SbcBenchError):
    """Arguments a bisect cannot start with (the message says which and why)."""


def default_state_dir(repo: Path) -> Path:
    git_dir = Git(repo).run("rev-parse", "--absolute-git-dir").stdout.strip()
    return Path(git_dir) / "sbcbench-bisect"


def new_state(repo: Path, good: str, bad: str, build: str, pytest_args: Sequence[str],
              budget: int, metric: str | None, state_dir: Path | None) -> State:
    git = Git(repo.resolve())
    if git.run("rev-parse", "--git-dir", check=False).returncode != 0:
        raise BisectArgsError(f"--repo {repo}: not a git repository")
    shas = {}
    for what, ref in (("--good", good), ("--bad", bad)):
        shas[what] = git.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}",
                             check=False).stdout.strip()
        if not shas[what]:
            raise BisectArgsError(f"{what} {ref}: no such commit in {repo}")
    if git.run("merge-base", "--is-ancestor", shas["--good"], shas["--bad"],
               check=False).returncode != 0:
        raise BisectArgsError(f"--good {good} is not an ancestor of --bad {bad}")
    directory = state_dir or default_state_dir(repo)
    if (directory / "state.json").is_file():
        previous = load(directory)
        if previous.status != "done":
            raise BisectArgsError(f"a bisect is already under way in {directory} "
                                  f"({previous.status}): sbcbench bisect --resume"
                                  f"{_dir_arg(state_dir)} continues it; delete the directory "
                                  "to start over")
    if git.bisecting():
        raise BisectArgsError(f"{repo} has a git bisect in progress: 'git bisect reset' first")
    args = {"repo": str(repo.resolve()), "good": good, "bad": bad, "good_sha": shas["--good"],
            "bad_sha": shas["--bad"], "build": build, "pytest_args": list(pytest_args),
            "boots_budget": budget, "metric": metric, "cwd": os.getcwd()}
    state = State(directory, args)
    state.save()
    return state


def _dir_arg(state_dir: Path | None) -> str:
    return f" --state-dir {state_dir}" if state_dir else ""


def resume_state(repo: Path | None, state_dir: Path | None) -> State:
    if state_dir is None and repo is None:
        raise BisectArgsError("--resume needs --repo DIR or --state-dir DIR")
    return load(state_dir or default_state_dir(repo or Path(".")))


def execute(state: State, say: Say, clock: Callable[[], float] = time.monotonic
            ) -> tuple[int, dict[str, Any]]:
    """Run (or continue) the bisect of ``state``; the exit code and the result document."""
    if state.status == "done" and state.result is not None:
        return (FOUND if state.result.get("culprit") else UNDECIDED), state.result
    args = state.args
    git = Git(Path(args["repo"]))
    bisector = GitBisector(git, args["good_sha"], args["bad_sha"])
    bench = SuiteBench(state, git, say)
    plan = BisectPlan(budget=int(args["boots_budget"]), metric=args.get("metric"))
    began = clock()
    state.status = "running"
    state.save()
    try:
        outcome = Procedure(bisector, bench, args["good_sha"], args["bad_sha"], plan,
                            say).run()
    except KeyboardInterrupt:
        state.wall_s += clock() - began
        state.status = "interrupted"
        state.save()
        return INTERRUPTED, {"schema": RESULT_SCHEMA, "status": "interrupted",
                             "state_dir": str(state.directory), "boots": state.boots_spent,
                             "reason": "interrupted (Ctrl-C): sbcbench bisect --resume "
                                       f"--state-dir {state.directory} continues"}
    except (BisectStopped, SbcBenchError) as exc:  # a named stop, or git refusing (dirty tree)
        state.wall_s += clock() - began
        state.status = "stopped"
        state.save()
        return STOPPED, {"schema": RESULT_SCHEMA, "status": "stopped", "reason": str(exc),
                         "state_dir": str(state.directory), "boots": state.boots_spent}
    log = bisector.log()
    (state.directory / LOG_FILE).write_text(log)
    bisector.reset()
    state.wall_s += clock() - began
    doc = result_doc(outcome, state, git, log)
    state.result, state.status = doc, "done"
    state.save()
    return (FOUND if outcome.status == "found" else UNDECIDED), doc


def result_doc(outcome: BisectOutcome, state: State, git: Git, log: str) -> dict[str, Any]:
    effect = None
    if outcome.effect_pct is not None and outcome.interval_pct is not None:
        effect = {"change_pct": round(outcome.effect_pct, 4),
                  "ci_pct": [round(x, 4) for x in outcome.interval_pct],
                  "confidence_pct": outcome.confidence_pct}
    return {
        "schema": RESULT_SCHEMA, "status": outcome.status, "culprit": outcome.culprit,
        "subject": git.subject(outcome.culprit) if outcome.culprit else None,
        "candidates": list(outcome.candidates), "reason": outcome.reason,
        "metric": outcome.metric, "effect": effect, "ends": outcome.ends,
        "good": state.args["good_sha"], "bad": state.args["bad_sha"],
        "boots": state.boots_spent, "boots_per_step": outcome.boots_per_step,
        "wall_s": round(state.wall_s, 1), "steps": [s.as_json() for s in outcome.steps],
        "git_bisect_log": log, "git_bisect_log_file": str(state.directory / LOG_FILE),
        "state_dir": str(state.directory)}


def render(doc: dict[str, Any]) -> str:
    """The terminal summary of a result document."""
    lines = []
    if doc["status"] in ("interrupted", "stopped"):
        return f"sbcbench bisect {doc['status']}: {doc['reason']}"
    if doc.get("culprit"):
        e = doc["effect"]
        lines += [f"first bad commit: {doc['culprit']} {doc.get('subject') or ''}".rstrip(),
                  f"  {doc['metric']}: {e['change_pct']:+.2f}% [{e['ci_pct'][0]:+.2f}, "
                  f"{e['ci_pct'][1]:+.2f}] ({e['confidence_pct']:.2f}% CI) against its parent; "
                  f"{doc['reason']}"]
    else:
        lines += [f"no culprit named: {doc['reason']}"]
        if doc.get("candidates"):
            lines += [f"  could be: {', '.join(c[:12] for c in doc['candidates'])}"]
    lines += [f"spent: {doc['boots']} boots, {doc['wall_s'] / 60:.1f} minutes"
              + (f" ({doc['boots_per_step']} boots a step to start)"
                 if doc.get("boots_per_step") else "")]
    if doc.get("ends"):
        ends = doc["ends"]
        lines += [f"ends: bad against good {ends['change_pct']:+.2f}% [{ends['ci_pct'][0]:+.2f}, "
                  f"{ends['ci_pct'][1]:+.2f}] over {ends['boots']} boots each"]
    for i, s in enumerate(doc.get("steps") or [], 1):
        lines += [f"  step {i}: {s['commit'][:12]} {s['verdict']:4} {s['boots']} boots: "
                  f"{s['detail']}"]
    lines += [f"git bisect log: {doc['git_bisect_log_file']}"]
    return "\n".join(lines)
