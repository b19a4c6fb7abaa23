"""In-process AEAD throughput through ``cryptography``: what a Python service gets, per second of
the measuring thread's CPU time (the wall-clock rate kept beside it).

Only public ``cryptography`` API is used, imported inside the functions that need it, so
importing this module (and the plugin) does not load the library."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import ToolError
from ..model import Identity, Measurement
from .clocks import THREAD_CPU, RunClock
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


# A stop (Ctrl-Z, SIGSTOP, a suspended machine) shows as one stretch between two clock readings
# (16 encryptions apart, well under a millisecond each) in which wall time passed but this
# thread got no CPU time.  A time slice is milliseconds, but a 2-core machine shared by four
# busy processes was seen to leave this thread off the CPU for 0.22 s at a time (the hostile
# replay): a stretch off the CPU longer than STOP_S and than STOP_SHARE of the sample is a
# stop, and the sample is refused.
STOP_S = 1.0
STOP_SHARE = 0.2
STOP_TRIES = 3  # samples refused in a row before the measurement fails


def aead_rate(algorithm: str, seconds: float, block_bytes: int,
              clock: Callable[[], float] = time.perf_counter,
              cpu_clock: Callable[[], float] = time.thread_time) -> float:
    """Bytes per wall second encrypting ``block_bytes`` buffers for about ``seconds`` (see
    :func:`aead_sample`)."""
    return aead_sample(algorithm, seconds, block_bytes, clock, cpu_clock).wall_rate


@dataclass(frozen=True)
class AeadSample:
    """One sample: the bytes encrypted per wall second and per second of this thread's CPU
    time, and both clocks' seconds."""

    wall_rate: float
    cpu_rate: float
    wall_s: float
    cpu_s: float


def aead_sample(algorithm: str, seconds: float, block_bytes: int,
                clock: Callable[[], float] = time.perf_counter,
                cpu_clock: Callable[[], float] = time.thread_time) -> AeadSample:
    """Encrypt ``block_bytes`` buffers for about ``seconds``; a clock that did not advance or
    a rate that cannot be real is a :class:`ToolError`.  A sample during which the process
    was stopped (``cpu_clock``, this thread's CPU time, did not advance with ``clock``) is
    refused and taken again, up to :data:`STOP_TRIES` times."""
    argv = call(algorithm, seconds, block_bytes)
    what = f"in-process {algorithm} rate"
    stops = []
    for _ in range(STOP_TRIES):
        amount, elapsed, off_cpu, cpu_s = _encrypt_for(_encryptor(algorithm), seconds,
                                                       block_bytes, clock, cpu_clock)
        rate = per_second(amount, elapsed, "B/s", argv, what)
        if off_cpu <= max(STOP_S, STOP_SHARE * elapsed):
            cpu_rate = per_second(amount, cpu_s, "B/s", argv, f"{what} per CPU second") \
                if cpu_s > 0 else rate
            return AeadSample(rate, cpu_rate, elapsed, cpu_s)
        stops.append(f"{off_cpu:.2f} s of {elapsed:.2f} s")
    raise ToolError(argv, None, "", f"{what}: this process was stopped (Ctrl-Z, SIGSTOP, a "
                                    f"suspend) during {STOP_TRIES} samples in a row, off the "
                                    f"CPU for {', '.join(stops)}: samples refused")


def _encrypt_for(encrypt: Encrypt, seconds: float, block_bytes: int,
                 clock: Callable[[], float], cpu_clock: Callable[[], float]
                 ) -> tuple[int, float, float, float]:
    """(bytes encrypted, wall seconds, the longest stretch off the CPU between two readings,
    this thread's CPU seconds)."""
    data = os.urandom(block_bytes)
    nonce = os.urandom(12)  # reused on purpose: throwaway key and data, speed only
    done = 0
    start = clock()
    deadline = start + seconds
    now, cpu = start, cpu_clock()
    cpu_start = cpu
    off_cpu = 0.0
    while now < deadline:
        for _ in range(16):
            encrypt(nonce, data, None)
        done += 16
        then, cpu_then = now, cpu
        now, cpu = clock(), cpu_clock()
        off_cpu = max(off_cpu, (now - then) - (cpu - cpu_then))
    return done * block_bytes, now - start, off_cpu, cpu - cpu_start


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
    """``runs`` samples of bytes per second of this thread's CPU time (what other work on the
    machine leaves unchanged: :mod:`.clocks`), each run's CPU and wall seconds in
    ``details["runs"]``; the identity says the clock (``thread-cpu``)."""
    taken = [aead_sample(algorithm, seconds, block_bytes) for _ in range(runs)]
    identity = Identity.of(tool="cryptography", version=cryptography_version(),
                           library=backend_version(), algorithm=algorithm,
                           block_bytes=block_bytes, threads=1, seconds=seconds, api="aead",
                           clock=THREAD_CPU)
    return Measurement(algorithm, "B/s", "higher", identity,
                       tuple(t.cpu_rate for t in taken),
                       label=f"{algorithm} (python cryptography)",
                       details={"runs": [RunClock(t.cpu_s, t.wall_s).as_dict()
                                         for t in taken]})
