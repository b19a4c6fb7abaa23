"""Clean release builds of pinned trees (:mod:`pytest_sbcbench.workloads.compile`): the
ballistics-engine pinned and head tiers, which skip without network and say how to provide a
mirror (``SBCBENCH_GIT_MIRROR``), and an offline crate that always builds."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = [  # noqa: RUF022 - the collection order
    "pytestmark",
    "test_offline_crate",
    "test_ballistics_pinned",
    "test_ballistics_head",
]

pytestmark = pytest.mark.compile


def test_offline_crate(sbc_workload: WorkloadRun) -> None:
    from pytest_sbcbench.measure.offline_crate import SHA

    (handle,) = sbc_workload.run()
    assert handle.measurement.identity.as_dict()["commit"] == SHA


def test_ballistics_pinned(sbc_workload: WorkloadRun) -> None:
    sbc_workload.run()


def test_ballistics_head(sbc_workload: WorkloadRun) -> None:
    sbc_workload.run()
