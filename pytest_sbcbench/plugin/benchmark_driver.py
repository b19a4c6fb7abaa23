"""pytest-benchmark as the run loop's driver: its public ``benchmark.pedantic`` times the planned
runs (the clean step as its untimed setup) when that plugin is active, and the result's
identity goes into the benchmark's ``extra_info``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from ..run.loop import Handle, plain_runs


def benchmark_fixture(request: pytest.FixtureRequest) -> Any:
    """pytest-benchmark's ``benchmark`` fixture when that plugin is active and enabled."""
    if not request.config.pluginmanager.hasplugin("benchmark"):
        return None
    fixture: Any = request.getfixturevalue("benchmark")
    if getattr(fixture, "disabled", False):
        # Disabled (--benchmark-disable, or any pytest-xdist worker, which pytest-benchmark
        # detects from PYTEST_XDIST_WORKER): its pedantic runs the function once, untimed.
        # Using it once for nothing keeps it from warning that the fixture asked for here
        # went unused, a warning that fails a run under -W error.
        fixture.pedantic(_nothing, rounds=1, iterations=1)
        return None
    return fixture


def _nothing() -> None:
    """The one untimed call that marks a disabled pytest-benchmark fixture as used."""


def benchmark_driver(request: pytest.FixtureRequest) -> LazyPedantic | None:
    """pytest-benchmark's public ``benchmark.pedantic`` as the loop's driver (the clean step
    as its untimed setup) when that plugin is active; else ``None``.  Its fixture is asked
    for only when the runs start (:class:`LazyPedantic`)."""
    if not request.config.pluginmanager.hasplugin("benchmark"):
        return None
    return LazyPedantic(request)


class LazyPedantic:
    """A driver that resolves pytest-benchmark's ``benchmark`` fixture when the run loop
    first drives the timed runs, after the workload is prepared: a build that skips before
    (no network for its clone, a tool missing on the board) never creates the fixture, so
    pytest-benchmark has no unused fixture to warn about.  With the fixture disabled
    (``--benchmark-disable``) the runs go through the plain loop."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.request = request
        self.driver: PedanticDriver | None = None

    def __call__(self, reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
        fixture = benchmark_fixture(self.request)
        if fixture is None:
            plain_runs(reset, take, runs)
            return
        self.driver = PedanticDriver(fixture)
        self.driver(reset, take, runs)

    def annotate(self, handles: Sequence[Handle]) -> None:
        if self.driver is not None:
            self.driver.annotate(handles)


class PedanticDriver:
    """Drives the planned runs through ``benchmark.pedantic`` (usable once per test) and puts
    the result's identity into the benchmark's ``extra_info``."""

    def __init__(self, fixture: Any) -> None:
        self.fixture = fixture

    def __call__(self, reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
        self.fixture.pedantic(take, setup=reset, rounds=runs, iterations=1, warmup_rounds=0)

    def annotate(self, handles: Sequence[Handle]) -> None:
        for handle in handles:
            self.fixture.extra_info.update(handle.measurement.identity.as_dict())
