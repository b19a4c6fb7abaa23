"""``openssl speed``: cipher and digest throughput (``-evp``), RSA and ECDSA sign and verify,
and where the board's openssl has them (OpenSSL 3.5's default provider) ML-KEM-768 and ML-DSA-65
from the KEM and signature tables."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..errors import SbcBenchError, ToolError
from ..model import Identity, Measurement
from ..workload import BaseWorkload, Ceiling, Context, Limits, Plan, TimedRun
from .pinning import Pin, pin_of

if TYPE_CHECKING:
    from ..measure.openssl import OpensslTool
    from ..settings import Settings

CIPHERS = ("aes-128-gcm", "aes-256-gcm", "aes-128-cbc", "chacha20-poly1305")
DIGESTS = ("sha256", "sha512")
ASYMMETRIC = (("rsa2048", "sign"), ("rsa2048", "verify"),
              ("ecdsa-p256", "sign"), ("ecdsa-p256", "verify"))
POST_QUANTUM = (("ml-kem-768", "keygen", "test_kem"), ("ml-kem-768", "encaps", "test_kem"),
                ("ml-kem-768", "decaps", "test_kem"),
                ("ml-dsa-65", "sign", "test_pq_signature"),
                ("ml-dsa-65", "verify", "test_pq_signature"))
BLOCK = 16384
MISSING_OPENSSL = ("openssl not found on PATH: install it (Debian/Ubuntu: apt-get install "
                   "openssl) or point {env} at an openssl binary")
TOOL_KEY = "openssl"

# Per-thread ceilings for crypto metrics, generous multiples of the fastest published per-core
# figures (references below); an ``openssl speed -multi N`` total gets N times the ceiling.
# They catch unit and parsing bugs (kB/s read as B/s, children summed twice, seconds per
# operation read as operations per second), not a few per cent of optimism.  Every crypto
# workload declares them (the in-process and bssl ones too), and the physics gate applies them
# to any result of their class, whichever workload measured it (a scaling run of sha256).
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
WHERE = "workloads/crypto.py CEILINGS"
CEILINGS: tuple[Ceiling, ...] = (
    # SHA-NI / ARMv8 SHA2 cores hash at most about 2-4 GB/s [2]: 20 GB/s is 9x SHA-256's best
    Ceiling("hash", 20e9, "B/s", "md5|sha1|sha224|sha256|sha384|sha512", source=WHERE),
    # CBC encryption is serial (about 1-2 GB/s [2]); decryption parallelises like GCM [1]:
    # 50 GB/s is twice the fastest GCM and 40x the fastest CBC encryption
    Ceiling("cipher", 50e9, "B/s", "aes-.*-cbc", source=WHERE),
    # AEADs: the fastest AES-GCM is 22.9 GB/s [1] (ChaCha20-Poly1305 is slower): 100 GB/s is 4x
    Ceiling("aead", 100e9, "B/s", ".*-gcm|chacha20-poly1305", source=WHERE),
    # RSA-2048 [3] times 12 (sign) and 16 (verify); other sizes scale by (2048/bits)^3 for the
    # private-key operation and (2048/bits)^2 for the public one (e = 65537)
    Ceiling("rsa sign", 50e3, "op/s", r"rsa(?P<bits>\d+)", "sign", size_power=3, source=WHERE),
    Ceiling("rsa verify", 1e6, "op/s", r"rsa(?P<bits>\d+)", "verify", size_power=2,
            source=WHERE),
    # ECDSA over P-256 (the fastest of the NIST curves offered) [3] times 20 and 30, any curve
    Ceiling("ecdsa sign", 1e6, "op/s", "ecdsa-.*", "sign", source=WHERE),
    Ceiling("ecdsa verify", 5e5, "op/s", "ecdsa-.*", "verify", source=WHERE),
)
CRYPTO_LIMITS = Limits(ceilings=CEILINGS)


def find_tool(ctx: Context) -> OpensslTool | str:
    """The real ``openssl`` where the run's executor runs commands (found once per session),
    or why there is none."""
    if TOOL_KEY not in ctx.shared:
        from ..measure import openssl

        path = openssl.find_openssl(executor=ctx.executor)
        if path is None:
            ctx.shared[TOOL_KEY] = MISSING_OPENSSL.format(env=openssl.OPENSSL_ENV)
        else:
            ctx.shared[TOOL_KEY] = openssl.env_problem(path) or _usable(path, ctx)
    found = ctx.shared[TOOL_KEY]
    if not isinstance(found, str):
        ctx.tools["openssl"] = found.version
    return found  # type: ignore[no-any-return]


def _usable(path: str, ctx: Context) -> OpensslTool | str:
    """The tool at ``path`` (run through the run's executor), or one line saying why it cannot
    run (the reason, the command, the last line of its stderr): every openssl test skips with
    that line."""
    from ..measure import openssl

    try:
        return openssl.openssl_tool(path, executor=ctx.executor)
    except ToolError as exc:
        said = exc.stderr.strip().splitlines()[-1:] or ["no stderr"]
        return (f"openssl at {path} is unusable: {exc.reason} (command: "
                f"{' '.join(exc.argv)}; {said[0]})")
    except SbcBenchError as exc:
        return f"openssl at {path} is unusable: {' '.join(str(exc).split())}"


def available_openssl(ctx: Context) -> str | None:
    found = find_tool(ctx)
    return found if isinstance(found, str) else None


def tool(ctx: Context) -> OpensslTool:
    found = find_tool(ctx)
    if isinstance(found, str):
        raise SbcBenchError(found)
    return found


def one_run(reading: Measurement, pin: Pin) -> TimedRun:
    """One invocation's measurement as a timed run: its clock (``details["runs"]``'s one entry:
    user CPU and wall seconds) as the run's details, the CPU it was pinned to in its own."""
    runs = reading.details.get("runs")
    clock = runs[0] if isinstance(runs, list) and len(runs) == 1 else {}
    details = {k: v for k, v in reading.details.items() if k != "runs"}
    if pin.cpu is not None:
        details["pinned_cpu"] = pin.cpu
    return TimedRun((dataclasses.replace(reading, details=details),), clock)


class OpensslWorkload(BaseWorkload):
    markers = ("crypto",)
    description = "openssl and in-process cipher, hash and signature throughput"
    limits = CRYPTO_LIMITS

    def available(self, ctx: Context) -> str | None:
        return available_openssl(ctx)

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=3, quick_seconds=1)

    def identity(self, ctx: Context) -> Identity:
        return Identity.of(tool="openssl", version=tool(ctx).version)

    def declared_identity(self, ctx: Context) -> Identity | None:
        return self.identity(ctx)  # the openssl found and its version: known before any run


class OpensslThroughput(OpensslWorkload):
    """``openssl speed -mr -evp ALG -bytes 16384``, bytes per second."""

    def __init__(self, algorithm: str, test: str, block_bytes: int = BLOCK) -> None:
        self.algorithm = algorithm
        self.block_bytes = block_bytes
        self.name = f"openssl-{algorithm}"
        self.test = test

    @property
    def param(self) -> str:
        return self.algorithm

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_throughput

        pin = pin_of(ctx)
        reading = measure_throughput(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1,
                                     block_bytes=self.block_bytes, prefix=pin.prefix)
        return one_run(reading, pin)


class OpensslRate(OpensslWorkload):
    """``openssl speed -mr rsa2048`` / ``ecdsap256``: one operation's rate, op/s.  Each test
    runs its own invocations, so its telemetry describes its own load."""

    test = "test_asymmetric"

    def __init__(self, algorithm: str, op: str) -> None:
        self.algorithm = algorithm
        self.op = op
        self.name = f"openssl-{algorithm}-{op}"

    @property
    def param(self) -> str:
        return f"{self.algorithm}-{self.op}"

    def plan(self, settings: Settings) -> Plan:
        base = super().plan(settings)  # sign and verify phases both run
        return Plan(base.runs, base.quick_runs, base.seconds, base.quick_seconds,
                    run_s=2 * base.seconds, quick_run_s=2 * base.quick_seconds)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_rates

        pin = pin_of(ctx)
        rates = measure_rates(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1,
                              prefix=pin.prefix)
        return one_run(rates[self.op], pin)


class OpensslPostQuantum(OpensslRate):
    """``openssl speed -seconds N ML-KEM-768`` / ``ML-DSA-65`` (OpenSSL 3.2+'s KEM and signature
    tables, :mod:`~pytest_sbcbench.measure.openssl_pq`): one operation's rate, op/s; unavailable,
    saying why, where the board's openssl does not list the algorithm."""

    def __init__(self, algorithm: str, op: str, test: str) -> None:
        super().__init__(algorithm, op)
        self.test = test

    def available(self, ctx: Context) -> str | None:
        missing = available_openssl(ctx)
        if missing is not None:
            return missing
        key = f"{TOOL_KEY}:{self.algorithm}"
        if key not in ctx.shared:
            from ..measure.openssl import post_quantum_problem

            try:
                ctx.shared[key] = post_quantum_problem(tool(ctx), self.algorithm)
            except SbcBenchError as exc:
                ctx.shared[key] = f"openssl cannot list its algorithms: {exc}"
        return ctx.shared[key]  # type: ignore[no-any-return]

    def plan(self, settings: Settings) -> Plan:
        base = OpensslWorkload.plan(self, settings)  # keygen and two more phases run
        return Plan(base.runs, base.quick_runs, base.seconds, base.quick_seconds,
                    run_s=3 * base.seconds, quick_run_s=3 * base.quick_seconds)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_post_quantum

        pin = pin_of(ctx)
        rates = measure_post_quantum(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1,
                                     prefix=pin.prefix)
        return one_run(rates[self.op], pin)


WORKLOADS = [
    *(OpensslThroughput(a, "test_cipher") for a in CIPHERS),
    *(OpensslThroughput(a, "test_digest") for a in DIGESTS),
    *(OpensslRate(a, op) for a, op in ASYMMETRIC),
    *(OpensslPostQuantum(a, op, test) for a, op, test in POST_QUANTUM),
]
