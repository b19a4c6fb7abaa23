"""``openssl speed``: cipher and digest throughput (``-evp``), RSA and ECDSA sign and verify,
and where the board's openssl has them (OpenSSL 3.5's default provider) ML-KEM-768 and ML-DSA-65
from the KEM and signature tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SbcBenchError, ToolError
from ..model import Identity
from ..workload import BaseWorkload, Context, Plan, TimedRun

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


class OpensslWorkload(BaseWorkload):
    markers = ("crypto",)
    description = "openssl and in-process cipher, hash and signature throughput"

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

    def sample(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_throughput

        reading = measure_throughput(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1,
                                     block_bytes=self.block_bytes)
        return TimedRun((reading,))


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
                    sample_s=2 * base.seconds, quick_sample_s=2 * base.quick_seconds)

    def sample(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_rates

        rates = measure_rates(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1)
        return TimedRun((rates[self.op],))


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
                    sample_s=3 * base.seconds, quick_sample_s=3 * base.quick_seconds)

    def sample(self, ctx: Context) -> TimedRun:
        from ..measure.openssl import measure_post_quantum

        rates = measure_post_quantum(tool(ctx), self.algorithm, seconds=ctx.seconds, runs=1)
        return TimedRun((rates[self.op],))


WORKLOADS = [
    *(OpensslThroughput(a, "test_cipher") for a in CIPHERS),
    *(OpensslThroughput(a, "test_digest") for a in DIGESTS),
    *(OpensslRate(a, op) for a, op in ASYMMETRIC),
    *(OpensslPostQuantum(a, op, test) for a, op, test in POST_QUANTUM),
]
