"""Measure: each metric's sampling, the run loop with its sequential decision, and the boot's
record (what awaits a verdict, what was judged, the closing of the boot).

Sequential sampling plugs in at :meth:`Recorder.measure`: after the planned runs the loop asks
the decision (:func:`judge.verdict.wants_more`, with every metric's samples so far, the
candidate's earlier boots beside them) whether to take one more, up to the metric's budget.
``more_needed`` and ``max_runs`` override the decision and the budget (tests).  What the
verdicts are given against (:class:`~..judge.verdict.JudgeContext`: the board, its baseline and
machine, the declared limits, m for Holm's first step and the candidate with its earlier boots)
is handed over once per boot, before its first test (:meth:`Recorder.begin`); the recorder
never asks the session for it.  A test's watch and its verdicts are its trial's
(:mod:`.trial`): the recorder is the boot's record (what is pending, what was judged), entered
once per measurement, which reads the metric's sampling from the workload's plan
(:meth:`..workload.Plan.sampling`: runs, budget, delta, carried in the result's details, from
which the judge plans) and enters the loop once (:func:`.loop.take_samples` returns the pending
handles; twice when other work disturbed the first samples)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import SbcBenchError
from ..workload import PLAN_KEY, Context, Plan, Sampling, Workload, sampling
from .loop import Driver, Handle, MoreNeeded, never_more, take_samples
from .quiet import Quiet

if TYPE_CHECKING:
    from ..judge.boot_decide import BootPlan
    from ..judge.candidates import Candidate
    from ..judge.closing import Closing
    from ..judge.verdict import JudgeContext
    from ..measure.background import Window
    from ..measure.sampler import Sampler
    from ..model import Finding, Measurement, Result
    from .target import RunTarget

Publish = Callable[["Result"], None]
RUNS_FOR_NOISE = 2  # runs a boot, times the plan's, where run noise outweighs boot drift
Taken = TypeVar("Taken")  # what a sampling returns (the loop's handles)
FarBoot = Callable[["Result"], bool]


class Recorder:
    """Plans and measures the run's metrics; keeps what awaits a verdict (``pending``, keyed
    by test) and every judged result in order (``results``: each test's :class:`.trial.Trial`
    adds its own)."""

    def __init__(self, notes: list[str] | None = None) -> None:
        self.results: list[Result] = []
        self.pending: dict[str, list[Handle]] = {}
        self.findings: list[tuple[str, Finding]] = []
        self.unavailable: dict[str, str] = {}
        self.trace_files: list[Path] = []
        self.tools: dict[str, str | None] = {}
        self.shared: dict[str, Any] = {}
        self.more_needed: MoreNeeded | None = None
        self.max_runs: int | None = None
        self.against: JudgeContext | None = None  # this boot's (:meth:`begin`)
        # saving a baseline: a regression against the boots of the same reference is a far
        # boot (recorded and reported by the save), not a failed test
        self.far_boot: FarBoot | None = None
        self.quiet = Quiet(notes if notes is not None else [])  # says "never idle" in notes
        self.windows: dict[str, list[Window]] = {}  # what ran beside each final measurement
        # tests whose measurement other work disturbed: what ran beside it (:func:`beside`)
        self.disturbed: dict[str, dict[str, str | None]] = {}

    def context(self, target: RunTarget, workload: Workload) -> Context:
        return target.context(workload, self.shared, self.tools)

    def begin(self, against: JudgeContext, far_boot: FarBoot | None = None) -> None:
        """Before the first test of a boot: what its verdicts are given against (m, the
        metrics of the collected tests that have a baseline: Holm's first step, alpha 4% / m;
        the candidate: its earlier boots and its label's boot plan) and, saving a baseline,
        which regressions are far boots of the reference being recorded."""
        self.against = against
        self.far_boot = far_boot

    @property
    def n_metrics(self) -> int:
        return self.against.n_metrics if self.against is not None else 1

    @property
    def candidate(self) -> Candidate | None:
        """The boot's candidate; None before a boot is planned."""
        return self.against.candidate if self.against is not None else None

    @property
    def tail_weight(self) -> float:
        """The baseline's heavy-tail weight (:mod:`..judge.boot_tails`); 0 without one."""
        baseline = self.against.baseline if self.against is not None else None
        return baseline.tail_weight if baseline is not None else 0.0

    def _judging(self) -> JudgeContext:
        assert self.against is not None, "a boot is begun before anything is judged"
        return self.against

    def plan(self, target: RunTarget, min_runs: int,
             min_effect_pct: float | None = None) -> BootPlan:
        """A metric's plan: ``--sbc-min-effect``, else the workload's delta, else 3%; the budget
        ``--sbc-max-runs`` (or :attr:`max_runs`), else 2x the planned runs."""
        from ..judge.verdict import run_plan

        runs = Plan(min_runs, fixed=True, min_effect_pct=min_effect_pct).sampling(
            target.settings, self.max_runs)
        return run_plan(runs.min_runs, runs.max_runs, runs.min_effect_pct, self.n_metrics,
                        self.judged_as().plan, self.tail_weight)

    def new_boot(self) -> None:
        """After a reboot (``--sbc-boots``): the last boot's results are written; start empty
        (what workloads kept on the board, such as built helpers, is gone with the boot)."""
        self.results, self.pending, self.findings, self.trace_files = [], {}, [], []
        self.shared = {}

    def record(self, target: RunTarget, test: str, measurement: Measurement) -> Handle:
        """Queue a custom ``measurement`` for ``test``'s verdict (given when its call phase
        ends), with its plan: its samples as a fixed count."""
        _check_details(test, measurement)
        n = max(1, len(measurement.samples))
        runs = sampling(n, n, target.settings.min_effect_pct or None, measurement.display_name)
        handle = Handle(test, measurement, self._carried(runs))
        self.pending.setdefault(test, []).append(handle)
        return handle

    def measure(self, target: RunTarget, test: str, workload: Workload, ctx: Context,
                driver: Driver | None = None, watching: Sampler | None = None
                ) -> list[Handle]:
        """Prepare ``workload``, take its planned samples (through ``driver`` when given, e.g.
        pytest-benchmark), then more while the sequential decision asks and the budget allows;
        record one result per metric.  ``watching``: the test's local sampler (its watch,
        :mod:`.trial`), whose window says whether other work disturbed the samples."""
        runs = self._runs_for_noise(test, ctx,
                                    ctx.plan.sampling(ctx.settings, self.max_runs, workload.name))
        more, details = self._more(test, runs), self._carried(runs)

        def sampled() -> list[Handle]:
            return take_samples(test, workload, ctx, more, runs.max_runs, driver, details)
        handles = self._undisturbed(target, test, sampled, watching)
        for handle in handles:  # queued in order, up to one the results file cannot hold
            _check_details(test, handle.measurement)
            self.pending.setdefault(test, []).append(handle)
        return handles

    def _runs_for_noise(self, test: str, ctx: Context, runs: Sampling) -> Sampling:
        """Where the baseline shows that run-to-run noise outweighs the drift between boots
        for this test (:meth:`..judge.baseline_model.Baseline.runs_dominate`), twice the runs
        a boot, saves and candidates alike so that the baseline grows into it: more runs narrow
        a verdict there, another boot would not as much.  Never where the runs are the test's
        own or given (``--sbc-runs``, ``--sbc-max-runs``)."""
        baseline = self.against.baseline if self.against is not None else None
        settings = ctx.settings
        if baseline is None or ctx.plan.fixed or self.max_runs or settings.runs is not None \
                or settings.max_runs is not None or not baseline.runs_dominate(test):
            return runs
        return sampling(RUNS_FOR_NOISE * runs.min_runs, None, runs.min_effect_pct)

    def _carried(self, runs: Sampling) -> dict[str, Any]:
        """What a result carries of its sampling (``details["sequential"]``), with m."""
        return {PLAN_KEY: {**dataclasses.asdict(runs), "n_metrics": self.n_metrics}}

    def _undisturbed(self, target: RunTarget, test: str, sampled: Callable[[], list[Taken]],
                     watching: Sampler | None) -> list[Taken]:
        """Take the samples; when other processes or steal disturbed them (the sampler's
        window says who), wait for the host to settle and take them again; when the
        disturbance persists, it is recorded with the test's results (:func:`beside`), whose
        judge decides what it did to them (:mod:`..judge.disturbance`)."""
        settings = target.settings
        if watching is None or not self.quiet.enabled(settings):
            return sampled()
        since = watching.begin()
        handles = sampled()
        seen = watching.window(since, self.quiet.sleep)
        if seen.outside() is not None:
            known_busy = self.quiet.busy is not None
            if not self.quiet.settle(settings, target.host):
                self.disturbed[test] = beside(seen, (
                    "the host has not gone idle in this run, so nothing was re-measured"
                    if known_busy else f"the host did not settle within "
                    f"{settings.idle_wait:g} s, so nothing was re-measured"))
            else:
                since = watching.begin()
                handles = sampled()
                seen = watching.window(since, self.quiet.sleep)
                if seen.outside() is not None:
                    self.disturbed[test] = beside(
                        seen, "still after the host settled and the test re-measured")
        self.windows.setdefault(test, []).append(seen)
        return handles

    def _more(self, test: str, runs: Sampling) -> MoreNeeded:
        """The loop's question: does any metric's decision still say ``continue``?  Against a
        baseline the judge plans the decision from ``runs`` (as it does when judging)."""
        if self.more_needed is not None:
            return self.more_needed
        against = self._judging()
        if against.baseline is None:
            return never_more
        from ..judge.verdict import run_plan, wants_more

        baseline, machine, candidate = against.baseline, against.machine, against.candidate
        plan = run_plan(runs.min_runs, runs.max_runs, runs.min_effect_pct, against.n_metrics,
                        candidate.plan, baseline.tail_weight)

        def more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
            return any(wants_more(test, m, baseline, machine, plan, candidate)
                       for m in measurements)
        return more

    def judged_as(self) -> Candidate:
        from ..judge.candidates import ALONE

        return self.candidate if self.candidate is not None else ALONE

    def close_preview(self) -> Closing:
        """What :meth:`close` would find now, the results left as they are."""
        from ..judge.closing import close_run

        return close_run(self.results, self._judging())

    def close(self) -> Closing:
        """Holm's later steps and the suite-mean test over this boot's results (the results'
        verdicts updated: :func:`judge.closing.with_closing`)."""
        from ..judge.closing import close_run, with_closing

        closing = close_run(self.results, self._judging())
        self.results = with_closing(self.results, closing)
        return closing


def beside(window: Window, after: str) -> dict[str, str | None]:
    """What ran beside a disturbed measurement, as its result records it (telemetry
    ``disturbed``, read by :mod:`..judge.disturbance`): other processes or load no scan
    accounts for (``load``), the hypervisor's steal (``steal``), and why nothing (more) was
    re-measured (``after``)."""
    load = "; ".join(p for p in (window.others(), window.unscanned()) if p) or None
    return {"load": load, "steal": window.steal(), "after": after}


def _check_details(test: str, measurement: Measurement) -> None:
    """Details that the results file cannot hold (a set, bytes, NaN) are refused when recorded,
    naming the test, not found at the end of the run where they would cost every result."""
    try:
        json.dumps(measurement.details, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SbcBenchError(f"{test}: {measurement.display_name}: details cannot be written to "
                            f"the results file ({exc}); use JSON values: str, finite numbers, "
                            "bool, None, lists and mappings") from exc
