"""Thread scaling (:mod:`pytest_sbcbench.workloads.scaling`): openssl ``-multi`` always,
sysbench and stress-ng when installed."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = [  # noqa: RUF022 - the collection order
    "pytestmark",
    "test_openssl_scaling",
    "test_sysbench_scaling",
    "test_stress_ng_matrixprod_scaling",
]

pytestmark = pytest.mark.scaling


def test_openssl_scaling(sbc_workload: WorkloadRun) -> None:
    handles = sbc_workload.run()
    assert handles[0].measurement.details["efficiency"] == 1.0


def test_sysbench_scaling(sbc_workload: WorkloadRun) -> None:
    sbc_workload.run()


def test_stress_ng_matrixprod_scaling(sbc_workload: WorkloadRun) -> None:
    sbc_workload.run()
