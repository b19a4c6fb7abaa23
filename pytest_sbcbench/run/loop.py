"""The run loop: a workload's samples, as many as the plan (and the decision) asks for, and the
handle a recorded result is known by until its verdict is final."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import SbcBenchError
from ..judge.warmup import without_warmup
from ..measure.clocks import clock_of, is_cpu_clock
from ..model import Identity
from ..workload import Context, TimedRun, Workload, combine

if TYPE_CHECKING:
    from ..model import Measurement, Result, Summary, Verdict

MoreNeeded = Callable[[Workload, Sequence["Measurement"]], bool]


class Driver(Protocol):
    """Something else that times the planned runs (pytest-benchmark's ``pedantic``): called
    with the untimed reset, the timed take and the count; told the handles afterwards."""

    def __call__(self, reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
        ...

    def annotate(self, handles: Sequence[Handle]) -> None:
        ...


NOT_FINAL = ("{name}: the verdict is not final yet; it is given when the test's call phase "
             "ends (read it from the results JSON or the pytest_sbcbench_result hook)")


def never_more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
    """The planned runs are enough (no baseline to decide against)."""
    return False


class Pending(Future["Result"]):
    """A handle's result, set by the test's trial when the call phase ends (``set_result``).
    Never waited on: the test would wait for itself, so reading it early raises saying so; it
    cannot be cancelled (the trial always judges what was recorded)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def cancel(self) -> bool:
        return False

    def _early(self) -> None:
        if not self.done():
            raise SbcBenchError(NOT_FINAL.format(name=self._name))

    def result(self, timeout: float | None = None) -> Result:
        self._early()
        return super().result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self._early()
        return super().exception(timeout)


class Handle:
    """What ``record()`` returns: the measurement (its details completed with ``details``: the
    recorder's sampling) and its summary now; the verdict and the full result once the test's
    call phase has ended (``final``).  Reading the verdict earlier raises
    :class:`SbcBenchError` saying so.  The result arrives through ``outcome`` (a
    :class:`Pending` the test's trial completes when it judges), so nothing calls back into the
    loop."""

    def __init__(self, test: str, measurement: Measurement,
                 details: Mapping[str, Any] | None = None) -> None:
        from ..judge.stats import summarize

        self.test = test
        self.measurement = _completed(measurement, details or {})
        self.summary: Summary = summarize(measurement.samples)
        self.outcome = Pending(measurement.display_name)

    @property
    def final(self) -> bool:
        return self.outcome.done()

    @property
    def result(self) -> Result:
        return self.outcome.result()

    @property
    def verdict(self) -> Verdict:
        return self.result.verdict


def plain_runs(reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
    """The loop's own :data:`Driver`: ``runs`` times, reset then take one sample."""
    for _ in range(runs):
        reset()
        take()


def take_samples(test: str, workload: Workload, ctx: Context, more_needed: MoreNeeded,
                 max_runs: int | None, driver: Driver | None = None,
                 details: Mapping[str, Any] | None = None) -> list[Handle]:
    """Prepare, take the planned samples (through ``driver`` when given), then one more while
    ``more_needed`` says so (asked with every metric's measurement so far: the sequential
    decision's look) and fewer than ``max_runs`` were taken; one pending :class:`Handle` of
    ``test`` per metric, its measurement's details completed with ``details`` (the recorder's
    sampling; a key the workload wrote stands).  The workload's ``close(ctx)`` runs after a
    successful ``prepare`` on every exit path (a failed or interrupted sample included)."""
    workload.prepare(ctx)
    try:
        measurements = _sampled(workload, ctx, more_needed, max_runs, driver)
    finally:
        workload.close(ctx)
    return [Handle(test, m, details) for m in measurements]


def _completed(measurement: Measurement, details: Mapping[str, Any]) -> Measurement:
    """``measurement`` with ``details`` it lacks (a key it has stands)."""
    missing = {k: v for k, v in details.items() if k not in measurement.details}
    if not missing:
        return measurement
    return dataclasses.replace(measurement, details={**measurement.details, **missing})


def _sampled(workload: Workload, ctx: Context, more_needed: MoreNeeded, max_runs: int | None,
             driver: Driver | None) -> list[Measurement]:
    """The planned runs, then more while a metric lacks its planned count (a first run
    dropped as a warm-up, :mod:`..judge.warmup`: replaced within the budget) or the decision
    asks for one; each measurement says its clock (``details["clock"]``) and each run the
    tool's CPU seconds beside its wall seconds (:func:`_timed`)."""
    runs = ctx.plan.runs_for(ctx.settings)
    base = workload.identity(ctx)
    runs_taken: list[TimedRun] = []

    def reset() -> None:
        workload.reset(ctx)

    def take() -> None:
        runs_taken.append(_timed(ctx, base, lambda: workload.timed_run(ctx)))

    def so_far() -> list[Measurement]:
        return [without_warmup(m) for m in combine(workload.name, base, runs_taken)]
    (driver or plain_runs)(reset, take, runs)
    budget = max(runs, max_runs or runs)
    taken = so_far()
    while len(runs_taken) < budget and (any(len(m.samples) < runs for m in taken)
                                        or more_needed(workload, taken)):
        reset()
        take()
        taken = so_far()
    return [_clocked(m) for m in workload.finish(ctx, taken)]


def _timed(ctx: Context, base: Identity, run: Callable[[], TimedRun]) -> TimedRun:
    """``run()``; a run of wall-time metrics gets its wall seconds and the CPU seconds of the
    processes it ran and reaped (this machine's: ``getrusage`` of the children) where the
    workload did not give them.  A CPU-time metric's run keeps only what its tool says of its
    own divisor (a process's whole CPU time, start-up included, is not it)."""
    local = ctx.executor.is_local
    before = ctx.host.children_times() if local else None
    started = time.perf_counter()
    done = run()
    wall = time.perf_counter() - started
    after = ctx.host.children_times() if before is not None else None
    if ("wall_s" in done.details and "cpu_s" in done.details) or any(
            is_cpu_clock(Identity.from_mapping({**base.as_dict(), **m.identity.as_dict()}))
            for m in done.measurements):
        return done
    extra: dict[str, float] = {"wall_s": round(wall, 6)}
    if before is not None and after is not None:
        extra["cpu_s"] = round(after.user_s + after.sys_s - before.user_s - before.sys_s, 6)
    return dataclasses.replace(done, details={**extra, **done.details})


def _clocked(m: Measurement) -> Measurement:
    """``m`` saying which clock its numbers are a rate of (:mod:`..measure.clocks`)."""
    if "clock" in m.details:
        return m
    return dataclasses.replace(m, details={**m.details, "clock": clock_of(m.identity)})
