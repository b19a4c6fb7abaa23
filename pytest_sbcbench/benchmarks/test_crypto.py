"""The seeds' crypto matrix: single-threaded OpenSSL at 16 KiB, RSA-2048 and ECDSA P-256 sign
and verify, and the same AEADs through Python's ``cryptography`` for comparison (the workloads:
:mod:`pytest_sbcbench.workloads.crypto` and :mod:`~pytest_sbcbench.workloads.inprocess`)."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = [  # noqa: RUF022 - the collection order
    "pytestmark",
    "test_cipher",
    "test_digest",
    "test_asymmetric",
    "test_inprocess",
]

pytestmark = pytest.mark.crypto


def positive(run: WorkloadRun) -> None:
    handles = run.run()
    assert handles and all(h.summary.median > 0 for h in handles)


def test_cipher(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_digest(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_asymmetric(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_inprocess(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)
