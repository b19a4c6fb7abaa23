"""``bssl speed``: BoringSSL's or AWS-LC's own benchmark (a tool of its own, not an openssl),
where a ``bssl`` binary exists; AES-128-GCM seal throughput at 16 KiB."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import SbcBenchError
from ..model import Identity
from ..workload import BaseWorkload, Context, Plan, TimedRun
from .crypto import CRYPTO_LIMITS

if TYPE_CHECKING:
    from ..measure.bssl import BsslTool
    from ..settings import Settings

TOOL_KEY = "bssl"
MISSING = ("bssl not found on PATH: build BoringSSL or AWS-LC (their tool/bssl) or point "
           "{env} at a bssl binary")


def find_tool(ctx: Context) -> BsslTool | str:
    """The ``bssl`` where the run's executor runs commands (once per session), or why none."""
    if TOOL_KEY not in ctx.shared:
        from ..measure import bssl

        path = bssl.find_bssl(executor=ctx.executor)
        if path is None:
            ctx.shared[TOOL_KEY] = MISSING.format(env=bssl.BSSL_ENV)
        else:
            try:
                ctx.shared[TOOL_KEY] = bssl.bssl_tool(path, executor=ctx.executor)
            except SbcBenchError as exc:
                ctx.shared[TOOL_KEY] = f"bssl at {path} is unusable: {' '.join(str(exc).split())}"
    found = ctx.shared[TOOL_KEY]
    if not isinstance(found, str):
        ctx.tools["bssl"] = f"{found.library} {found.version}"
    return found  # type: ignore[no-any-return]


def tool(ctx: Context) -> BsslTool:
    found = find_tool(ctx)
    if isinstance(found, str):
        raise SbcBenchError(found)
    return found


class BsslAeadSeal(BaseWorkload):
    """``bssl speed -filter AES-128-GCM -chunks 16384``: the AEAD's seal, bytes per second."""

    markers = ("crypto",)
    description = "openssl and in-process cipher, hash and signature throughput"
    limits = CRYPTO_LIMITS
    test = "test_bssl"

    def __init__(self, aead: str, block_bytes: int = 16384) -> None:
        self.aead = aead
        self.block_bytes = block_bytes
        self.name = f"bssl-{aead}-seal"

    @property
    def param(self) -> str:
        return f"{self.aead}-seal"

    def available(self, ctx: Context) -> str | None:
        found = find_tool(ctx)
        return found if isinstance(found, str) else None

    def plan(self, settings: Settings) -> Plan:
        # the filter also runs the open direction (and AWS-LC's EVP and GCM-SIV rows)
        return Plan(runs=3, quick_runs=2, seconds=1, quick_seconds=1, run_s=8.0,
                    quick_run_s=8.0)

    def identity(self, ctx: Context) -> Identity:
        found = tool(ctx)
        return Identity.of(tool="bssl", library=found.library, version=found.version)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.bssl import measure_aead_seal

        reading = measure_aead_seal(tool(ctx), self.aead, block_bytes=self.block_bytes,
                                    seconds=ctx.seconds, runs=1)
        return TimedRun((reading,))


WORKLOADS = [BsslAeadSeal("aes-128-gcm")]
