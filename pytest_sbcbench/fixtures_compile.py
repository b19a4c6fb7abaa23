"""Fixtures for compile workloads: ``pinned_checkout`` and ``compile_bench`` (contract), both on
the same workload class and run loop as the shipped compile workloads
(:class:`pytest_sbcbench.workloads.compile.Build`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .errors import SbcBenchError
from .fixtures import Bench
from .runloop import Handle, plain_runs
from .session import get_session
from .workload import Unavailable

if TYPE_CHECKING:
    from .measure.checkout import Tree

Checkout = Callable[..., "Tree"]
CompileBench = Callable[..., Handle]


def cache_dir(config: pytest.Config) -> Path:
    return get_session(config).settings.cache_root


def benchmark_fixture(request: pytest.FixtureRequest) -> Any:
    """pytest-benchmark's ``benchmark`` fixture when that plugin is active and enabled."""
    if not request.config.pluginmanager.hasplugin("benchmark"):
        return None
    fixture: Any = request.getfixturevalue("benchmark")
    return None if getattr(fixture, "disabled", False) else fixture


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

    def annotate(self, handles: list[Handle]) -> None:
        if self.driver is not None:
            self.driver.annotate(handles)


class PedanticDriver:
    """Drives the planned runs through ``benchmark.pedantic`` (usable once per test) and puts
    the result's identity into the benchmark's ``extra_info``."""

    def __init__(self, fixture: Any) -> None:
        self.fixture = fixture

    def __call__(self, reset: Callable[[], None], take: Callable[[], None], runs: int) -> None:
        self.fixture.pedantic(take, setup=reset, rounds=runs, iterations=1, warmup_rounds=0)

    def annotate(self, handles: list[Handle]) -> None:
        for handle in handles:
            self.fixture.extra_info.update(handle.measurement.identity.as_dict())


@pytest.fixture
def pinned_checkout(request: pytest.FixtureRequest) -> Checkout:
    """``pinned_checkout(url, commit, expect={"files": .., "loc": .., "crates": ..},
    tier="pinned")``: a cached clone checked out detached at exactly one full SHA, with a
    verified fingerprint; skips with a reason when the remote cannot be reached."""
    from .workloads.compile import Source, check_out

    cache = cache_dir(request.config)

    def pinned(url: str, commit: str, expect: Mapping[str, int] | None = None,
               tier: str = "pinned") -> Tree:
        try:
            return check_out(Source(url, commit, expect, tier), cache)
        except Unavailable as exc:
            pytest.skip(exc.reason)
        except SbcBenchError as exc:
            pytest.fail(str(exc), pytrace=False)
    return pinned


@pytest.fixture
def compile_bench(request: pytest.FixtureRequest, sbcbench: Bench) -> CompileBench:
    """``compile_bench(tree, build=[...], clean=[...], runs=None, warmup=1, jobs=None,
    env=None)``: untimed warm-up builds, then timed clean builds.  Returns the result's
    :class:`~pytest_sbcbench.session.Handle`: its samples and summary now, its verdict once
    the test's call phase ends (``handle.final``)."""
    from .workloads.compile import Build, BuildSpec

    def bench(tree: Tree, build: Sequence[str], clean: Sequence[str], runs: int | None = None,
              warmup: int = 1, jobs: int | None = None,
              env: Mapping[str, str] | None = None) -> Handle:
        from .measure.checkout import repo_name

        workload = Build(f"compile-{repo_name(tree.url)}", request.node.name,
                         BuildSpec(list(build), list(clean), warmup, jobs, env, runs), tree=tree)
        driver = benchmark_driver(request)
        handles = sbcbench.run(workload, driver)
        if driver is not None:
            driver.annotate(handles)
        return handles[0]
    return bench
