"""AEAD encryption through Python's ``cryptography`` package, in the test's own process: what a
Python service on the board gets."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from ..model import Identity
from ..workload import BaseWorkload, Context, Plan, TimedRun
from .crypto import CRYPTO_LIMITS

if TYPE_CHECKING:
    from ..settings import Settings

ALGORITHMS = ("aes-128-gcm", "chacha20-poly1305")
BLOCK = 16384


class Aead(BaseWorkload):
    markers = ("crypto",)
    description = "openssl and in-process cipher, hash and signature throughput"
    limits = CRYPTO_LIMITS
    test = "test_inprocess"

    def __init__(self, algorithm: str, block_bytes: int = BLOCK) -> None:
        self.algorithm = algorithm
        self.block_bytes = block_bytes
        self.name = f"cryptography-{algorithm}"

    @property
    def param(self) -> str:
        return self.algorithm

    def available(self, ctx: Context) -> str | None:
        from .remote import not_remote

        remote = not_remote(ctx, "in-process cryptography measures the controller's Python, "
                                 "not the board")
        if remote is not None:
            return remote
        if importlib.util.find_spec("cryptography") is None:
            return "the cryptography package is not installed (pip install cryptography)"
        return None

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=3, quick_seconds=1)

    def identity(self, ctx: Context) -> Identity:
        import cryptography

        return Identity.of(tool="cryptography", version=cryptography.__version__)

    def declared_identity(self, ctx: Context) -> Identity | None:
        return self.identity(ctx)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.inprocess import measure_aead
        from .crypto import one_run
        from .pinning import Pin

        reading = measure_aead(self.algorithm, seconds=float(ctx.seconds), runs=1,
                               block_bytes=self.block_bytes)
        return one_run(reading, Pin((), None, "in this process"))


WORKLOADS = [Aead(a) for a in ALGORITHMS]
