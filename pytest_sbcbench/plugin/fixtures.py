"""Fixtures that benchmarks use: ``sbc_workload`` (a registered workload, sampled and judged),
``sbcbench`` (record custom measurements), ``sbc_board``, ``sbc_platform``, ``sbc_openssl``.

As pytest-benchmark hands its fixture the callables it needs (``add_stats``, a logger), the
``sbcbench`` fixture asks the session once for the test's trial (:class:`..run.trial.Trial`)
and gets its recorder calls (:class:`Calls`), not the session: a test records and measures
straight through the recorder, which already holds what it judges against; the call-phase
hooks find the trial on the item (:func:`.state.trial_of`).  Heavy modules are imported
inside the fixtures, when a benchmark runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ..errors import SbcBenchError
from .items import function_name, workload_of
from .state import TRIAL_KEY, session_of

if TYPE_CHECKING:
    from ..measure.openssl import OpensslTool
    from ..model import Measurement
    from ..platform.board import BoardProfile
    from ..run.loop import Driver, Handle
    from ..settings import Settings
    from ..workload import Context, Workload


@dataclass(frozen=True)
class Calls:
    """What a test's fixture calls: record a measurement, measure a workload, build a
    workload's context or take the test's own (each the recorder's, on this boot's target),
    and the board and settings it runs under."""

    record: Callable[[str, Measurement], Handle]
    measure: Callable[[str, Workload, Context, Driver | None], list[Handle]]
    context: Callable[[Workload], Context]  # a fresh one (each ``Bench.run``)
    own: Callable[[Workload], Context]  # the test's registered workload's, built at set-up
    board: Callable[[], BoardProfile]
    settings: Settings


def calls_of(request: pytest.FixtureRequest) -> Calls:
    """This test's calls: the session asked once for its trial (the board, the boot's
    recorder, handed what it judges against, and the target), kept on the item for the
    call-phase hooks."""
    try:
        ran = workload_of(request.node)  # the test's registered workload, if it has one
        trial = session_of(request.config).trial(request.node.nodeid, ran)
    except SbcBenchError as exc:  # no board, or no context for its workload: the reason
        pytest.fail(str(exc), pytrace=False)
    request.node.stash[TRIAL_KEY] = trial
    recorder, target = trial.recorder, trial.target

    def record(test: str, measurement: Measurement) -> Handle:
        return recorder.record(target, test, measurement)

    def measure(test: str, workload: Workload, ctx: Context, driver: Driver | None
                ) -> list[Handle]:
        return recorder.measure(target, test, workload, ctx, driver, trial.watching)

    def board() -> BoardProfile:
        assert trial.board is not None, "a session's trial has its board"
        return trial.board

    def own(workload: Workload) -> Context:  # the trial built the test's workload's
        return trial.ctx if workload is ran and trial.ctx is not None else trial.context(workload)
    return Calls(record, measure, trial.context, own, board, target.settings)


class Bench:
    """One test's handle on the run: record custom measurements, or run a workload."""

    def __init__(self, request: pytest.FixtureRequest, calls: Calls) -> None:
        self._request = request
        self.calls = calls

    @property
    def settings(self) -> Settings:
        return self.calls.settings

    @property
    def nodeid(self) -> str:
        return str(self._request.node.nodeid)

    @property
    def board(self) -> BoardProfile:
        return self.calls.board()

    def record(self, measurement: Measurement) -> Handle:
        """Queue ``measurement`` for this test's verdict.

        Its summary is known now; telemetry, validity and the verdict are attached when the
        test's call phase ends (``handle.final``); then the result enters the summary, the
        results JSON and the ``pytest_sbcbench_result`` hook."""
        try:
            return self.calls.record(self.nodeid, measurement)
        except SbcBenchError as exc:
            pytest.fail(str(exc), pytrace=False)

    def run(self, workload: Workload, driver: Driver | None = None) -> list[Handle]:
        """Run ``workload`` through the session's loop now (skips when it is unavailable)."""
        ctx = self.calls.context(workload)
        reason = workload.available(ctx)
        if reason is not None:
            pytest.skip(reason)
        return run_in_test(self.calls, self.nodeid, workload, ctx, driver)

    def openssl_throughput(self, algorithm: str, block_bytes: int = 16384) -> Handle:
        """``openssl speed -evp ALG -bytes N``, in bytes per second."""
        from ..workloads.crypto import OpensslThroughput

        (handle,) = self.run(OpensslThroughput(algorithm, "custom", block_bytes))
        return handle

    def openssl_rate(self, algorithm: str, op: str) -> Handle:
        """Sign or verify operations per second (``openssl speed rsa2048`` / ``ecdsap256``)."""
        from ..workloads.crypto import OpensslRate

        (handle,) = self.run(OpensslRate(algorithm, op))
        return handle

    def inprocess_aead(self, algorithm: str, block_bytes: int = 16384) -> Handle:
        """AEAD encryption through the ``cryptography`` package, in this Python process."""
        from ..workloads.inprocess import Aead

        (handle,) = self.run(Aead(algorithm, block_bytes))
        return handle


def run_in_test(calls: Calls, nodeid: str, workload: Workload, ctx: Context,
                driver: Driver | None = None) -> list[Handle]:
    """The recorder's loop inside a test: an unavailable workload skips, a broken tool fails
    the test with its message (no traceback of the plugin's own code); the driver annotates
    what it timed."""
    from ..workload import Unavailable

    try:
        handles = calls.measure(nodeid, workload, ctx, driver)
        if driver is not None:
            driver.annotate(handles)
        return handles
    except Unavailable as exc:
        pytest.skip(exc.reason)
    except SbcBenchError as exc:
        pytest.fail(str(exc), pytrace=False)


class WorkloadRun:
    """A registered workload, available here (checked at set-up), ready to run."""

    def __init__(self, bench: Bench, workload: Workload, ctx: Context,
                 driver: Driver | None) -> None:
        self.bench = bench
        self.workload = workload
        self.ctx = ctx
        self.driver = driver
        self.handles: list[Handle] = []

    def run(self) -> list[Handle]:
        """Take the samples (in the call phase, under the sampler) and record the results."""
        self.handles = run_in_test(self.bench.calls, self.bench.nodeid, self.workload,
                                   self.ctx, self.driver)
        return self.handles


def the_workload(item: pytest.Item) -> Workload:
    """The test's workload (:func:`.items.workload_of`); a test without a single registered
    workload fails saying so."""
    found = workload_of(item)
    if found is None:
        name = function_name(item)
        count = len(session_of(item.config).registry.for_test(name))
        pytest.fail(f"{name}: no single registered workload runs in this test "
                    f"({count} found)", pytrace=False)
    return found


@pytest.fixture
def sbcbench(request: pytest.FixtureRequest) -> Bench:
    """Measure with real tools and record judged results for the summary and results JSON (a
    board that cannot be resolved fails the test with the reason)."""
    return Bench(request, calls_of(request))


@pytest.fixture
def sbc_workload(request: pytest.FixtureRequest, sbcbench: Bench) -> WorkloadRun:
    """A registered workload for this test, its availability resolved here (a missing tool
    skips at set-up); call ``.run()`` in the test."""
    workload = the_workload(request.node)
    ctx = sbcbench.calls.own(workload)
    reason = workload.available(ctx)
    if reason is not None:
        pytest.skip(reason)
    driver = None
    if workload.uses_pytest_benchmark:
        from .benchmark_driver import benchmark_driver

        driver = benchmark_driver(request)
    return WorkloadRun(sbcbench, workload, ctx, driver)


@pytest.fixture(scope="session")
def sbc_board(request: pytest.FixtureRequest) -> BoardProfile:
    """The board profile this run is judged against."""
    try:
        return session_of(request.config).board
    except SbcBenchError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def sbc_platform(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Platform facts of the machine (or --sbc-sysroot tree): features, ISA, accelerators,
    clusters, kernel crypto (``sbcbench probe --json``)."""
    from ..platform.facts import platform_facts

    return platform_facts(session_of(request.config).settings.sysroot)


@pytest.fixture(scope="session")
def sbc_openssl(request: pytest.FixtureRequest) -> OpensslTool:
    """The real ``openssl`` binary and its version; skips with a reason when absent."""
    from ..workload import Context
    from ..workloads.crypto import find_tool

    session = session_of(request.config)
    target, recorder = session.target, session.recorder
    found = find_tool(Context(target.settings, target.executor, target.host, recorder.shared,
                              recorder.tools))
    if isinstance(found, str):
        pytest.skip(found)
    return found
