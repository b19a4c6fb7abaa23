"""Sequential storage write and read that cannot be the page cache, judged against the
interface the platform reports and the board's limits
(:mod:`pytest_sbcbench.workloads.storage`)."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = ["pytestmark", "test_sequential"]

pytestmark = pytest.mark.storage


def test_sequential(sbc_workload: WorkloadRun) -> None:
    assert {h.measurement.metric for h in sbc_workload.run()} == {"storage-write",
                                                                   "storage-read"}
