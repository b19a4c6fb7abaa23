"""DRAM bandwidth with a STREAM-style kernel whose arrays are at least 4x the last-level cache;
one sample is one run of the kernel (read, write, copy and triad of that run)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Identity
from ..workload import BaseWorkload, Context, Plan, Sample

if TYPE_CHECKING:
    from ..settings import Settings


class Stream(BaseWorkload):
    name = "memory-stream"
    markers = ("memory",)
    description = "DRAM bandwidth"
    test = "test_stream"

    @property
    def param(self) -> str:
        return ""

    def available(self, ctx: Context) -> str | None:
        from ..measure.c_helpers import compiler
        from .remote import not_remote

        remote = not_remote(ctx, "the memory kernel is built with the controller's C compiler "
                                 "and is not built on the board yet")
        if remote is not None:
            return remote

        if compiler() is None:
            return "no C compiler for the memory kernel (apt-get install gcc, or set CC)"
        return None

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=10, quick_seconds=3, sample_s=5.0,
                    quick_sample_s=2.0, setup_s=1.0)

    def passes(self, ctx: Context) -> int:
        return 3 if ctx.quick else 10

    def prepare(self, ctx: Context) -> None:
        from ..measure import stream
        from ..platform.topology import last_level_cache

        llc = last_level_cache(ctx.sysroot)
        ctx.scratch["spec"] = stream.plan(llc.size_bytes if llc else None)
        ctx.scratch["binary"] = stream.build(ctx.cache, executor=ctx.executor)

    def identity(self, ctx: Context) -> Identity:
        return Identity.of(tool="sbcbench-stream")

    def sample(self, ctx: Context) -> Sample:
        from ..measure import stream

        readings = stream.measure(ctx.scratch["binary"], ctx.scratch["spec"],
                                  passes=self.passes(ctx), runs=1, executor=ctx.executor)
        return Sample(tuple(readings))


WORKLOADS = [Stream()]
