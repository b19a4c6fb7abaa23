"""What a collected pytest item is to the run: a benchmark (it uses the plugin's fixtures), a
sampled one (its call phase runs under the sampler), and the registered workload it runs
(:func:`workload_of`, the one answer the hooks, the fixtures and the skip notice share)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .state import session_of

if TYPE_CHECKING:
    from ..workload import Workload

BENCHMARK_FIXTURES = frozenset({"sbcbench", "sbc_workload", "compile_bench", "pinned_checkout",
                                "sbc_board", "sbc_platform", "sbc_openssl"})
SAMPLED_FIXTURES = frozenset({"sbcbench", "sbc_workload", "compile_bench"})


def is_benchmark(item: pytest.Item) -> bool:
    return bool(BENCHMARK_FIXTURES & set(getattr(item, "fixturenames", ())))


def is_sampled(item: pytest.Item) -> bool:
    return bool(SAMPLED_FIXTURES & set(getattr(item, "fixturenames", ())))


def function_name(item: pytest.Item) -> str:
    """The test function's name (without its parameters)."""
    return str(getattr(item, "originalname", item.name))


def workload_of(item: pytest.Item) -> Workload | None:
    """The registered workload a suite test runs: its ``sbc_workload`` parameter, else the one
    workload registered for its function's name; None for a test that is not a workload's
    (it records its own measurements) or when no single workload is registered for it."""
    from ..workload import Workload

    callspec = getattr(item, "callspec", None)
    if callspec is not None and "sbc_workload" in callspec.params:
        found = callspec.params["sbc_workload"]
        return found if isinstance(found, Workload) else None
    if "sbc_workload" not in getattr(item, "fixturenames", ()):
        return None
    single = session_of(item.config).registry.for_test(function_name(item))
    return single[0] if len(single) == 1 else None
