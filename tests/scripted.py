"""A scripted workload for the run layer's unit tests: each ``timed_run()`` returns the next
value the test fixed (no tool, no clock), and the workload counts what the loop asked of it; a
baseline of ten boots to judge it against, and a session of a captured Star64 tree."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from helpers import listing_settings, star64_tree
from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.judge.baseline import Baseline, BaselineEntry, StoredSession
from pytest_sbcbench.model import Identity
from pytest_sbcbench.run.boot_cycle import current_boot, plan_suite
from pytest_sbcbench.run.loop import Handle
from pytest_sbcbench.run.session import Session
from pytest_sbcbench.settings import Settings
from pytest_sbcbench.workload import BaseWorkload, Context, Plan, TimedRun, Workload
from pytest_sbcbench.workloads import Registry

TEST = "benchmarks/test_crypto.py::test_digest[sha256]"
IDENTITY = Identity.of(tool="scripted", version="1")
# ten baseline boots of three runs each, about 1000 B/s; their drift between boots is above
# their run noise, so the plan keeps its runs (judge.boot_test.runs_dominate)
OFFSETS = (0.0, 2.0, -2.0, 1.0, -1.0, 1.5, -1.5, 0.5, -0.5, 0.0)
BASELINE = Baseline("star64", (BaselineEntry(TEST, "sha256", "B/s", "higher", IDENTITY, tuple(
    StoredSession(f"2026-11-{i:02d}", (1000.0 + o, 1001.0 + o, 999.0 + o), {"boot_id": f"b{i}"})
    for i, o in enumerate(OFFSETS, start=1))),))
SAME = [1000.0, 1003.0, 997.0, 1001.0, 999.0, 1002.0]
SLOWER = [800.0, 802.0, 798.0, 801.0, 799.0, 800.5]  # 20% down


class Scripted(BaseWorkload):
    """``values[i]`` is the i-th sample of metric ``sha256`` (B/s, higher is better); a value
    of None breaks the tool at that sample.  ``runs`` samples are planned."""

    name = "sha256"
    markers = ("crypto",)
    description = "scripted samples"

    def __init__(self, values: Sequence[float | None], runs: int = 3) -> None:
        self.values = list(values)
        self.runs = runs
        self.taken = 0
        self.calls: list[str] = []

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=self.runs, quick_runs=self.runs, seconds=0, quick_seconds=0)

    def identity(self, ctx: Context) -> Identity:
        return IDENTITY

    def prepare(self, ctx: Context) -> None:
        self.calls.append("prepare")

    def reset(self, ctx: Context) -> None:
        self.calls.append("reset")

    def close(self, ctx: Context) -> None:
        self.calls.append("close")

    def timed_run(self, ctx: Context) -> TimedRun:
        value = self.values[self.taken]
        self.taken += 1
        self.calls.append("run")
        if value is None:
            raise SbcBenchError(f"scripted tool broke at sample {self.taken}")
        return TimedRun.of("sha256", "B/s", "higher", value)


def star64_session(tmp_path: Path, **changes: object) -> Session:
    """A session of a captured Star64 tree (nothing probed on this machine)."""
    settings = dataclasses.replace(listing_settings(star64_tree(tmp_path / "t"), False),
                                   **changes)  # type: ignore[arg-type]
    return Session(settings, list, lambda: Registry(()))


def with_baseline(run: Session) -> Session:
    """``run`` with :data:`BASELINE` as its board's baseline (installed as a boot)."""
    run.install(dataclasses.replace(current_boot(run), baseline=BASELINE))
    return run


def planned(tmp_path: Path, baseline: Baseline | None = None, **changes: object) -> Session:
    """A session of the Star64 tree (``changes`` to its settings) with its boot planned for
    :data:`TEST`, judged against ``baseline`` when given."""
    run = star64_session(tmp_path, **changes)
    if baseline is not None:
        run.install(dataclasses.replace(current_boot(run), baseline=baseline))
    run.install(plan_suite(run, [TEST]))
    return run


def measure(run: Session, test: str, work: Workload) -> list[Handle]:
    """``work`` measured for ``test`` as the ``sbcbench`` fixture does: through the recorder
    and target of the trial the session gives the test."""
    trial = run.trial(test)
    return trial.recorder.measure(trial.target, test, work, trial.context(work))


def judged(run: Session, values: list[float]) -> None:
    """One scripted test measured through its trial and given its verdicts (no trace)."""
    measure(run, TEST, Scripted(values))
    run.trial(TEST).verdicts(None, [], lambda result: None)


# The head of a pytester conftest that registers scripted workloads: three runs a test (quick or
# not), no run time, one identity; a test's ``Scripted`` subclass says how its samples go.
SCRIPTED_BASE = """
from pytest_sbcbench.model import Identity
from pytest_sbcbench.workload import BaseWorkload, Plan, TimedRun


class ScriptedBase(BaseWorkload):
    markers = ("scripted",)

    def plan(self, settings):
        return Plan(runs=3, quick_runs=3, seconds=0, quick_seconds=0)

    def identity(self, ctx):
        return Identity.of(tool="scripted", version="1")
"""
