"""Workloads third parties register through the ``pytest_sbcbench_workloads`` hook (and any
built-in one placed in ``test_workload``), one parameter each."""

from __future__ import annotations

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = ["test_workload"]


def test_workload(sbc_workload: WorkloadRun) -> None:
    assert sbc_workload.run()
