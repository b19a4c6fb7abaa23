"""Fixtures for compile workloads: ``pinned_checkout`` and ``compile_bench`` (contract), both on
the same workload class and run loop as the shipped compile workloads
(:class:`pytest_sbcbench.workloads.compile.Build`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ..errors import SbcBenchError
from .state import session_of

if TYPE_CHECKING:
    from ..measure.checkout import Tree
    from ..run.loop import Handle
    from .fixtures import Bench

Checkout = Callable[..., "Tree"]
CompileBench = Callable[..., "Handle"]


def cache_dir(config: pytest.Config) -> Path:
    return session_of(config).settings.cache_root


@pytest.fixture
def pinned_checkout(request: pytest.FixtureRequest) -> Checkout:
    """``pinned_checkout(url, commit, expect={"files": .., "loc": .., "crates": ..},
    tier="pinned")``: a cached clone checked out detached at exactly one full SHA, with a
    verified fingerprint; skips with a reason when the remote cannot be reached."""
    from ..workload import Unavailable
    from ..workloads.compile import Source, check_out

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
    :class:`~pytest_sbcbench.run.loop.Handle`: its samples and summary now, its verdict once
    the test's call phase ends (``handle.final``)."""
    from ..workloads.compile import Build, BuildSpec

    def bench(tree: Tree, build: Sequence[str], clean: Sequence[str], runs: int | None = None,
              warmup: int = 1, jobs: int | None = None,
              env: Mapping[str, str] | None = None) -> Handle:
        from ..measure.checkout import repo_name
        from .benchmark_driver import benchmark_driver

        workload = Build(f"compile-{repo_name(tree.url)}", request.node.name,
                         BuildSpec(list(build), list(clean), warmup, jobs, env, runs), tree=tree)
        driver = benchmark_driver(request)
        return sbcbench.run(workload, driver)[0]
    return bench
