"""In-process AEAD throughput through ``cryptography``: what a Python service gets.

Only public ``cryptography`` API is used, imported inside the functions that need it, so
importing this module (and the plugin) does not load the library."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from ..model import Identity, Measurement
from .sanity import per_second

Encrypt = Callable[[bytes, bytes, bytes | None], bytes]
INPROCESS_ALGORITHMS = ("aes-128-gcm", "chacha20-poly1305")


def _encryptor(algorithm: str) -> Encrypt:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

    if algorithm == "aes-128-gcm":
        return AESGCM(AESGCM.generate_key(bit_length=128)).encrypt
    if algorithm == "chacha20-poly1305":
        return ChaCha20Poly1305(ChaCha20Poly1305.generate_key()).encrypt
    raise ValueError(f"no in-process implementation of {algorithm!r}; "
                     f"choose one of {', '.join(INPROCESS_ALGORITHMS)}")


def call(algorithm: str, seconds: float, block_bytes: int) -> tuple[str, ...]:
    """What ran, shown where a command would be: there is no external command here."""
    return ("cryptography", f"{algorithm}.encrypt", f"--block-bytes={block_bytes}",
            f"--seconds={seconds:g}", "(in this Python process)")


def aead_rate(algorithm: str, seconds: float, block_bytes: int,
              clock: Callable[[], float] = time.perf_counter) -> float:
    """Bytes per second encrypting ``block_bytes`` buffers for about ``seconds``; a clock
    that did not advance or a rate that cannot be real is a :class:`ToolError`."""
    encrypt = _encryptor(algorithm)
    data = os.urandom(block_bytes)
    nonce = os.urandom(12)  # reused on purpose: throwaway key and data, speed only
    done = 0
    start = clock()
    deadline = start + seconds
    now = start
    while now < deadline:
        for _ in range(16):
            encrypt(nonce, data, None)
        done += 16
        now = clock()
    return per_second(done * block_bytes, now - start, "B/s",
                      call(algorithm, seconds, block_bytes), f"in-process {algorithm} rate")


def cryptography_version() -> str:
    import cryptography

    return str(cryptography.__version__)


def backend_version() -> str:
    """The OpenSSL that ``cryptography`` runs on (``OpenSSL 3.0.19 27 Jan 2026``).

    ``openssl_version_text()`` is the one backend method cryptography documents as public
    ("Use of OpenSSL", for debugging); it is the only backend use in the package."""
    from cryptography.hazmat.backends.openssl import backend

    return str(backend.openssl_version_text())


def measure_aead(algorithm: str, *, seconds: float, runs: int, block_bytes: int = 16384
                 ) -> Measurement:
    samples = tuple(aead_rate(algorithm, seconds, block_bytes) for _ in range(runs))
    identity = Identity.of(tool="cryptography", version=cryptography_version(),
                           library=backend_version(), algorithm=algorithm,
                           block_bytes=block_bytes, threads=1, seconds=seconds, api="aead")
    return Measurement(algorithm, "B/s", "higher", identity, samples,
                       label=f"{algorithm} (python cryptography)")
