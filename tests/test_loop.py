"""The run loop (run/loop.py) on a scripted workload: how many samples it takes, when it asks
for more, what it tells a driver, that ``close`` follows ``prepare`` on every path, and the
handle whose verdict is not readable before it is final."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from scripted import Scripted, star64_session

from pytest_sbcbench.errors import SbcBenchError
from pytest_sbcbench.model import Measurement, Result, Verdict
from pytest_sbcbench.run.loop import Driver, Handle, MoreNeeded, never_more, take_samples
from pytest_sbcbench.workload import Context, Workload


def context(tmp_path: Path, workload: Workload) -> Context:
    return star64_session(tmp_path).context(workload)


def measured(work: Workload, ctx: Context, more: MoreNeeded, max_runs: int | None,
             driver: Driver | None = None) -> Measurement:
    """The loop's one metric's measurement (its pending handle's)."""
    (handle,) = take_samples("t::x", work, ctx, more, max_runs, driver)
    assert handle.test == "t::x" and not handle.final
    return handle.measurement


def test_the_planned_samples_in_order_then_no_more(tmp_path: Path) -> None:
    work = Scripted([5.0, 6.0, 7.0, 8.0])
    m = measured(work, context(tmp_path, work), never_more, max_runs=10)
    assert m.samples == (5.0, 6.0, 7.0) and m.metric == "sha256"
    assert work.calls == ["prepare", "reset", "run", "reset", "run", "reset", "run",
                          "close"]


def test_more_while_the_decision_asks_up_to_the_budget(tmp_path: Path) -> None:
    seen: list[tuple[float, ...]] = []

    def more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
        seen.append(measurements[0].samples)
        return True  # always "continue": only the budget stops it
    work = Scripted([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    m = measured(work, context(tmp_path, work), more, max_runs=5)
    assert m.samples == (1.0, 2.0, 3.0, 4.0, 5.0)
    assert seen == [(1.0, 2.0, 3.0), (1.0, 2.0, 3.0, 4.0)]  # asked before each extra sample


def test_a_decision_that_stops_ends_the_samples(tmp_path: Path) -> None:
    def until_four(workload: Workload, measurements: Sequence[Measurement]) -> bool:
        return len(measurements[0].samples) < 4
    work = Scripted([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    m = measured(work, context(tmp_path, work), until_four, max_runs=6)
    assert m.samples == (1.0, 2.0, 3.0, 4.0)


class CountingDriver:
    """A driver (as pytest-benchmark's pedantic): told the runs, it calls reset then take."""

    def __init__(self) -> None:
        self.runs: list[int] = []
        self.annotated: list[Handle] = []

    def __call__(self, reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
        self.runs.append(runs)
        for _ in range(runs):
            reset()
            take()

    def annotate(self, handles: Sequence[Handle]) -> None:
        self.annotated += handles


def test_a_driver_times_the_planned_runs_and_the_loop_the_extra_ones(tmp_path: Path) -> None:
    driver = CountingDriver()

    def once_more(workload: Workload, measurements: Sequence[Measurement]) -> bool:
        return len(measurements[0].samples) < 4
    work = Scripted([1.0, 2.0, 3.0, 4.0, 5.0])
    m = measured(work, context(tmp_path, work), once_more, 8, driver)
    assert driver.runs == [3] and m.samples == (1.0, 2.0, 3.0, 4.0)


def test_close_follows_prepare_when_a_sample_breaks(tmp_path: Path) -> None:
    work = Scripted([1.0, None, 3.0])
    with pytest.raises(SbcBenchError, match="broke at sample 2"):
        take_samples("t::x", work, context(tmp_path, work), never_more, None)
    assert work.calls[0] == "prepare" and work.calls[-1] == "close"


def test_a_handle_says_its_verdict_is_not_final_until_settled(tmp_path: Path) -> None:
    work = Scripted([2.0, 4.0, 6.0])
    (handle,) = take_samples("t::x", work, context(tmp_path, work), never_more, None)
    m = handle.measurement
    assert handle.summary.median == 4.0 and not handle.final
    with pytest.raises(SbcBenchError, match="sha256: the verdict is not final yet"):
        _ = handle.verdict
    # waiting on it inside the test would wait for itself: it raises at once, never blocks,
    # and the trial's judging cannot be cancelled
    with pytest.raises(SbcBenchError, match="sha256: the verdict is not final yet"):
        handle.outcome.result()
    with pytest.raises(SbcBenchError, match="sha256: the verdict is not final yet"):
        handle.outcome.exception()
    assert handle.outcome.cancel() is False and not handle.outcome.cancelled()
    handle.outcome.set_result(Result("t::x", m, handle.summary, Verdict("pass", "scripted")))
    assert handle.final and handle.verdict.status == "pass"
    assert handle.outcome.exception() is None


def test_a_handle_completes_its_details_with_the_recorders_keeping_the_workloads(
        tmp_path: Path) -> None:
    work = Scripted([2.0, 4.0, 6.0])
    plan = {"sequential": {"min_runs": 3}, "mine": 2}
    (handle,) = take_samples("t::x", work, context(tmp_path, work), never_more, None,
                             details=plan)
    details = dict(handle.measurement.details)
    # the loop's own: the clock the numbers are a rate of, each run's wall seconds
    assert details.pop("clock") == "wall" and len(details.pop("runs")) == 3
    assert details == {"sequential": {"min_runs": 3}, "mine": 2}
    own = Handle("t::y", dataclasses.replace(handle.measurement, details={"mine": 1}), plan)
    assert own.measurement.details == {"mine": 1, "sequential": {"min_runs": 3}}
