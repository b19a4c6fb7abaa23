"""The physics gate: a number beyond what the hardware can do is a bug report, not a result.

Limits come from the board profile: each metric a workload registration bounds by a board
fact (DRAM theoretical bandwidth, the storage interface or media ceiling: see
:data:`pytest_sbcbench.workloads.BUILTIN`) gets that fact as its limit, and the maximum clock
bounds the sampled clocks (above it: sensor or driver bugs).  Crypto results get ceilings per
metric class that hold on any board (see :data:`CEILINGS`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import SbcBenchError
from ..model import Result, Verdict, display
from ..platform.board import BoardProfile
from ..words import counted
from ..workloads import DRAM, STORAGE, builtin_limits

CLOCK_SLACK = 1.05
PHYSICS = "beats physics: a bug report, not a result"


@dataclass(frozen=True)
class Limit:
    metric: str
    value: float
    unit: str
    source: str


def limits(board: BoardProfile, declared: Mapping[str, str] | None = None) -> list[Limit]:
    """The board's limit for each ``declared`` metric (metric -> the board fact bounding it;
    default: what the built-in workloads declare) whose fact the profile has, and its clock."""
    facts = board.facts
    note = str(facts.get("limits_note", "board profile"))
    sources = {DRAM: f"{board.dram or 'DRAM'} theoretical bandwidth ({note})",
               STORAGE: f"{facts.get('storage', 'storage')} ({note})"}
    out = []
    for metric, fact in (builtin_limits() if declared is None else declared).items():
        value = facts.get(fact)
        if value:
            out.append(Limit(metric, float(value), "B/s", sources.get(fact, f"{fact} ({note})")))
    tops = [c.max_mhz for c in board.clusters if c.max_mhz]
    if tops:
        out.append(Limit("clock", max(tops) * CLOCK_SLACK, "MHz",
                         f"max clock {max(tops):.0f} MHz of {board.name} (+5% slack)"))
    return out


@dataclass(frozen=True)
class Ceiling:
    """The most one thread of any CPU does for a class of crypto metrics, in ``unit``."""

    kind: str
    per_thread: float
    unit: str


# Per-thread ceilings for crypto metrics, generous multiples of the fastest published per-core
# figures (references below); an ``openssl speed -multi N`` total gets N times the ceiling.
# They catch unit and parsing bugs (kB/s read as B/s, children summed twice, seconds per
# operation read as operations per second), not a few per cent of optimism.
#
# Evidence (16384-byte blocks, one core unless said):
#   [1] AES-128-GCM 22.9 GB/s: AMD EPYC 9655 (Zen 5, VAES-512), OpenSSL master,
#       https://github.com/openssl/openssl/pull/31633 (benchmark comment, 2026-08-18);
#       Ice Lake-SP Xeon 8380: 11.5 GB/s, https://github.com/openssl/openssl/pull/32760.
#   [2] SHA-256 2.18 GB/s, SHA-512 1.27 GB/s, AES-256-CBC encrypt 1.24 GB/s per core: AWS
#       c8a.large (2 Zen 5 cores, ``-multi 2`` totals halved), SpareCores sc-inspector-data
#       data/aws/c8a.large/openssl/parsed.json, https://github.com/SpareCores/sc-inspector-data.
#   [3] rsa2048 sign 4155/s, verify 60760/s, ecdsap256 sign 50259/s, verify 16832/s: a 2.6 GHz
#       AMD EPYC core, OpenSSL 3.0.19 (tests/data/this_machine/openssl-3.0.19_mr_*.txt);
#       rsa512 verify 402500/s on a Mac, https://github.com/openssl/openssl/issues/21257.
CEILINGS: dict[str, Ceiling] = {
    # SHA-NI / ARMv8 SHA2 cores hash at most about 2-4 GB/s [2]: 20 GB/s is 9x SHA-256's best
    "hash": Ceiling("hash", 20e9, "B/s"),
    # CBC encryption is serial (about 1-2 GB/s [2]); decryption parallelises like GCM [1]:
    # 50 GB/s is twice the fastest GCM and 40x the fastest CBC encryption
    "cipher": Ceiling("cipher", 50e9, "B/s"),
    # AEADs: the fastest AES-GCM is 22.9 GB/s [1] (ChaCha20-Poly1305 is slower): 100 GB/s is 4x
    "aead": Ceiling("aead", 100e9, "B/s"),
    # RSA-2048 [3] times 12 (sign) and 16 (verify); other sizes scale by (2048/bits)^3 for the
    # private-key operation and (2048/bits)^2 for the public one (e = 65537)
    "rsa sign": Ceiling("rsa sign", 50e3, "op/s"),
    "rsa verify": Ceiling("rsa verify", 1e6, "op/s"),
    # ECDSA over P-256 (the fastest of the NIST curves offered) [3] times 20 and 30, any curve
    "ecdsa sign": Ceiling("ecdsa sign", 1e6, "op/s"),
    "ecdsa verify": Ceiling("ecdsa verify", 5e5, "op/s"),
}
HASHES = ("md5", "sha1", "sha224", "sha256", "sha384", "sha512")


def crypto_class(algorithm: str, op: str | None) -> tuple[Ceiling, float] | None:
    """The ceiling class of a canonical algorithm name and the factor for its key size."""
    if op is None:
        if algorithm in HASHES:
            return CEILINGS["hash"], 1.0
        if algorithm.endswith("-gcm") or algorithm == "chacha20-poly1305":
            return CEILINGS["aead"], 1.0
        if algorithm.startswith("aes-") and algorithm.endswith("-cbc"):
            return CEILINGS["cipher"], 1.0
        return None
    if algorithm.startswith("rsa") and algorithm[3:].isdigit() and op in ("sign", "verify"):
        power = 3 if op == "sign" else 2
        return CEILINGS[f"rsa {op}"], (2048 / int(algorithm[3:])) ** power
    if algorithm.startswith("ecdsa-") and op in ("sign", "verify"):
        return CEILINGS[f"ecdsa {op}"], 1.0
    return None


def crypto_limits(result: Result, board: BoardProfile | None = None) -> list[Limit]:
    """The crypto ceiling of this result, scaled by its identity's thread count, at most the
    board's cores (a file claiming 1000 threads on a 4-core board gets 4 cores' ceiling:
    threads beyond the cores add no throughput)."""
    m = result.measurement
    ident = m.identity.as_dict()
    algorithm = ident.get("algorithm")
    op = ident.get("op")
    found = crypto_class(str(algorithm), None if op is None else str(op)) \
        if algorithm is not None else None
    if found is None or found[0].unit != m.unit:
        return []
    ceiling, size = found
    threads = ident.get("threads")
    n = threads if isinstance(threads, int) and not isinstance(threads, bool) and threads > 0 \
        else 1
    why = ""
    if board is not None and 0 < board.cores < n:
        why = f" (the {board.cores} cores of {board.name}; the result claims {n} threads)"
        n = board.cores
    per_thread = ceiling.per_thread * size
    shown, unit = display(per_thread, ceiling.unit)
    return [Limit(m.metric, per_thread * n, m.unit,
                  f"{ceiling.kind} ceiling {shown} {unit} per thread x "
                  f"{counted(n, 'thread')}{why}; judge/physics.py CEILINGS")]


def measured_limits(result: Result) -> list[Limit]:
    """A result may carry the ceiling of the interface it was measured through (storage)."""
    metric = result.measurement.metric
    ceiling = _positive(result.telemetry.get("interface_limit_bytes_per_s"),
                        f"{result.test}: interface_limit_bytes_per_s")
    if not ceiling:
        return []
    source = str(result.telemetry.get("interface", "the storage interface"))
    return [Limit(metric, ceiling, "B/s", source)]


def _positive(value: Any, what: str, *, zero_ok: bool = False) -> float | None:
    """A limit or reading the gate compares against: None when absent, else a finite number
    above 0 (or 0 with ``zero_ok``); anything else (a string, a list, NaN, a negative) is
    refused, never compared."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
        raise SbcBenchError(f"{what} is {value!r}, not a finite number above 0: the physics "
                            "gate cannot judge against it")
    return float(value)


def check(result: Result, board: BoardProfile, declared: Mapping[str, str] | None = None
          ) -> Verdict | None:
    """``implausible`` when any sample or a sampled clock exceeds a board limit (of the
    ``declared`` metrics), an interface limit or the crypto ceiling of its metric class."""
    found = []
    m = result.measurement
    for limit in [*limits(board, declared), *measured_limits(result),
                  *crypto_limits(result, board)]:
        if limit.metric == m.metric and limit.unit == m.unit and max(m.samples) > limit.value:
            shown, unit = display(max(m.samples), limit.unit)
            top, _ = display(limit.value, limit.unit)
            found.append(f"{limit.metric} {shown} {unit} {PHYSICS} (limit {top} {unit}: "
                         f"{limit.source})")
        if limit.metric == "clock":
            clocks = result.telemetry.get("clock_mhz") or {}
            clock = _positive(clocks.get("max"), f"{result.test}: clock_mhz max", zero_ok=True) \
                if isinstance(clocks, dict) else None
            if clock is not None and clock > limit.value:
                found.append(f"sampled clock {clock:.0f} MHz {PHYSICS} ({limit.source})")
    return Verdict("implausible", "; ".join(found)) if found else None
