"""The seeds' crypto matrix: single-threaded OpenSSL at 16 KiB, RSA-2048 and ECDSA P-256 sign
and verify, ML-KEM-768 keygen/encaps/decaps and ML-DSA-65 sign/verify where the openssl has them
(3.5's default provider; skipped saying so elsewhere), and the same AEADs through Python's
``cryptography`` for comparison, and BoringSSL's or AWS-LC's ``bssl speed`` where a ``bssl``
exists (the workloads:
:mod:`pytest_sbcbench.workloads.crypto`, :mod:`~pytest_sbcbench.workloads.inprocess` and
:mod:`~pytest_sbcbench.workloads.bssl`)."""

from __future__ import annotations

import pytest

from pytest_sbcbench.plugin.fixtures import WorkloadRun

__all__ = [  # noqa: RUF022 - the collection order
    "pytestmark",
    "test_cipher",
    "test_digest",
    "test_asymmetric",
    "test_kem",
    "test_pq_signature",
    "test_inprocess",
    "test_bssl",
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


def test_kem(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_pq_signature(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_inprocess(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)


def test_bssl(sbc_workload: WorkloadRun) -> None:
    positive(sbc_workload)
