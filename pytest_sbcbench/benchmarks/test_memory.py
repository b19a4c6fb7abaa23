"""DRAM bandwidth with arrays at least 4x the last-level cache, judged by the physics gate
(:mod:`pytest_sbcbench.workloads.memory`)."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = ["pytestmark", "test_stream"]

pytestmark = pytest.mark.memory


def test_stream(sbc_workload: WorkloadRun) -> None:
    assert {h.measurement.metric for h in sbc_workload.run()} == {
        "memory-read", "memory-write", "memory-copy", "memory-triad"}
