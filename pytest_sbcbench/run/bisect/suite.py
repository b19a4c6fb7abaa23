"""The real bench of ``sbcbench bisect``: build and install a commit, boot, run the suite.

A commit is built by the user's command in the repository (``sh -c CMD``, with
``SBCBENCH_BISECT_COMMIT`` naming the commit): exit 0 built and installed, 125 skip it (as
``git bisect run``), anything else stops the bisect naming the commit and the command's last
lines.  It is built again only when another commit was installed since.

Each boot is one ``python -m pytest PYTEST_ARGS --sbc-candidate LABEL --sbc-results FILE``
(the label is the commit's 12-digit abbreviation, so every session goes to the history under
it).  On a labgrid board (``-p labgrid`` with ``--lg-env`` or ``LG_ENV``) several boots of one
commit are one run with ``--sbc-boots N``, which reboots the board between them (a QEMU board
boots afresh for every run).  Locally, a run is a boot only in name: when ``SBCBENCH_BOOT_ID``
is set (tests and simulations), each run gets ``$SBCBENCH_BOOT_ID-<label>-<n>``.  The samples
are read from each run's results JSON (kept in the state directory's ``runs/``); the boot id is
the one the results file records.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...judge.boot_test import BootSession
from .git import Git
from .procedure import Boot, Say, Unmeasurable
from .state import State

SKIP = 125
TAIL_LINES = 15
UNUSABLE = ("implausible", "invalid")


def tail(text: str, n: int = TAIL_LINES) -> str:
    lines = text.rstrip().splitlines()[-n:]
    return "\n".join(f"    {line}" for line in lines) if lines else "    (no output)"


def on_lab(args: Sequence[str]) -> bool:
    """``-p labgrid`` (or ``-plabgrid``) with an environment (``--lg-env`` or ``LG_ENV``)."""
    plugin = any(a == "-plabgrid" or (a == "-p" and b == "labgrid")
                 for a, b in zip(args, [*args[1:], ""], strict=True))
    env = any(a == "--lg-env" or a.startswith("--lg-env=") for a in args) or bool(
        os.environ.get("LG_ENV"))
    return plugin and env


def metric_key(result: dict[str, Any]) -> str:
    identity = result.get("identity") or {}
    threads = identity.get("threads") if isinstance(identity, dict) else None
    name = f"{result.get('metric')}" + (f" threads={threads}" if threads is not None else "")
    return f"{name} ({result.get('test')})"


def boot_from(doc: Any) -> Boot | None:
    """The boot a results document (``sbcbench-results/1``) holds; None: no usable result."""
    if not isinstance(doc, dict):
        return None
    env = doc.get("environment") or {}
    lab = env.get("lab") or {}
    boot_id = lab.get("boot_id") or env.get("boot_id")
    sessions, better = {}, {}
    for r in doc.get("results") or []:
        samples = r.get("samples") or []
        status = (r.get("verdict") or {}).get("status")
        if not samples or status in UNUSABLE or r.get("better") not in ("higher", "lower"):
            continue
        key = metric_key(r)
        sessions[key] = BootSession(tuple(float(s) for s in samples),
                                    str(boot_id) if boot_id else None)
        better[key] = r["better"]
    return Boot(sessions, better) if sessions else None


class SuiteBench:
    """:class:`~.procedure.BootBench` over the state's recorded boots, then real ones."""

    def __init__(self, state: State, git: Git, say: Say):
        self.state, self.git, self.say = state, git, say
        self.served: dict[str, int] = {}
        self.recorded = {c: state.recorded(c) for c in state.boots}

    @property
    def args(self) -> dict[str, Any]:
        return self.state.args

    def boots(self, commit: str, n: int) -> list[Boot] | Unmeasurable:
        served = self.served.get(commit, 0)
        out = self.recorded.get(commit, [])[served:served + n]
        self.served[commit] = served + len(out)
        if len(out) == n:
            return out
        if commit in self.state.skips:
            return Unmeasurable("skip", self.state.skips[commit])
        built = self.install(commit)
        if built is not None:
            return built
        fresh = self.measure(commit, n - len(out))
        if isinstance(fresh, Unmeasurable):
            return fresh
        self.served[commit] += len(fresh)
        return out + fresh

    def install(self, commit: str) -> Unmeasurable | None:
        if self.state.installed == commit:
            return None
        self.state.installed = None
        self.state.save()
        self.git.checkout(commit)
        label = self.git.short(commit)
        self.say(f"bisect: building {label}: {self.args['build']}")
        done = subprocess.run(["sh", "-c", self.args["build"]], cwd=self.args["repo"],
                              env={**os.environ, "SBCBENCH_BISECT_COMMIT": commit},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False)
        if done.returncode == SKIP:
            reason = f"the build command exited 125 (skip this commit)\n{tail(done.stdout, 3)}"
            self.state.skips[commit] = reason
            self.state.save()
            return Unmeasurable("skip", reason)
        if done.returncode != 0:
            return Unmeasurable("stop", f"the build command {self.args['build']!r} exited "
                                f"{done.returncode}; its last lines:\n{tail(done.stdout)}")
        self.state.installed = commit
        self.state.save()
        return None

    def measure(self, commit: str, n: int) -> list[Boot] | Unmeasurable:
        label = self.git.short(commit)
        args = list(self.args["pytest_args"])
        runs = [1] * n if not on_lab(args) or n == 1 else [n]
        out: list[Boot] = []
        for boots in runs:
            got = self.run_pytest(commit, label, boots)
            if isinstance(got, Unmeasurable):
                return got
            out += got
        return out

    def run_pytest(self, commit: str, label: str, boots: int) -> list[Boot] | Unmeasurable:
        self.state.runs += 1
        runs = self.state.directory / "runs"
        runs.mkdir(parents=True, exist_ok=True)
        path = runs / f"{label}-{self.state.runs}.json"
        argv = [sys.executable, "-m", "pytest", *self.args["pytest_args"],
                "--sbc-candidate", label, "--sbc-results", str(path)]
        argv += ["--sbc-boots", str(boots)] if boots > 1 else []
        env = dict(os.environ)
        if env.get("SBCBENCH_BOOT_ID"):
            env["SBCBENCH_BOOT_ID"] = f"{os.environ['SBCBENCH_BOOT_ID']}-{label}-{self.state.runs}"
        done_boots = self.state.boots_spent
        self.say(f"bisect: {label}: {'boot' if boots == 1 else f'{boots} boots'} "
                 f"(boot {done_boots + 1} of the bisect), results {path}")
        log = path.with_suffix(".log")
        with log.open("w") as out:
            done = subprocess.run(argv, cwd=self.args["cwd"], env=env, stdout=out,
                                  stderr=subprocess.STDOUT, check=False)
        files = [path.with_name(f"{path.stem}.boot{i}{path.suffix}") for i in range(1, boots)]
        got = [boot_from(_load(f)) for f in [*files, path]]
        if done.returncode not in (0, 1) or any(b is None for b in got):
            return Unmeasurable("stop", f"pytest exited {done.returncode} with no usable "
                                f"results for {label} ({path}; a board that did not come back, "
                                f"or the suite failed); its last lines ({log}):\n"
                                f"{tail(log.read_text(errors='replace'))}")
        boots_of = [b for b in got if b is not None]
        for boot, f in zip(boots_of, [*files, path], strict=True):
            self.state.record(commit, boot, str(f))
        return boots_of


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None
