"""The seeds' crypto matrix: single-threaded OpenSSL at 16 KiB, RSA-2048 and ECDSA P-256 sign
and verify, and the same AEADs through Python's ``cryptography`` for comparison."""

from __future__ import annotations

import pytest

from pytest_sbcbench.fixtures import Bench

pytestmark = pytest.mark.crypto

CIPHERS = ["aes-128-gcm", "aes-256-gcm", "aes-128-cbc", "chacha20-poly1305"]
DIGESTS = ["sha256", "sha512"]
ASYMMETRIC = [("rsa2048", "sign"), ("rsa2048", "verify"),
              ("ecdsa-p256", "sign"), ("ecdsa-p256", "verify")]
INPROCESS = ["aes-128-gcm", "chacha20-poly1305"]


@pytest.mark.parametrize("algorithm", CIPHERS)
def test_cipher(sbcbench: Bench, algorithm: str) -> None:
    result = sbcbench.openssl_throughput(algorithm, block_bytes=16384)
    assert result.summary.median > 0


@pytest.mark.parametrize("algorithm", DIGESTS)
def test_digest(sbcbench: Bench, algorithm: str) -> None:
    result = sbcbench.openssl_throughput(algorithm, block_bytes=16384)
    assert result.summary.median > 0


@pytest.mark.parametrize(("algorithm", "op"), ASYMMETRIC, ids=[f"{a}-{o}" for a, o in ASYMMETRIC])
def test_asymmetric(sbcbench: Bench, algorithm: str, op: str) -> None:
    result = sbcbench.openssl_rate(algorithm, op)
    assert result.summary.median > 0


@pytest.mark.parametrize("algorithm", INPROCESS)
def test_inprocess(sbcbench: Bench, algorithm: str) -> None:
    result = sbcbench.inprocess_aead(algorithm, block_bytes=16384)
    assert result.summary.median > 0
