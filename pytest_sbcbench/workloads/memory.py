"""DRAM bandwidth with a STREAM-style kernel whose arrays are at least 4x the last-level cache;
one timed run is one run of the kernel (a sample each of read, write, copy and triad)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Identity
from ..workload import BaseWorkload, Context, Plan, TimedRun

if TYPE_CHECKING:
    from ..settings import Settings

BOARD_CC = "memory-board-cc"  # the board's compiler lookup, once per session


class MemoryStream(BaseWorkload):
    name = "memory-stream"
    markers = ("memory",)
    description = "DRAM bandwidth"
    test = "test_stream"

    @property
    def param(self) -> str:
        return ""

    def available(self, ctx: Context) -> str | None:
        """A C compiler where the kernel runs: this machine's, or the board's own (the kernel
        is compiled there: a controller binary may not even be the board's ISA)."""
        from ..measure.c_helpers import board_compiler, compiler

        if not ctx.executor.is_local:
            if BOARD_CC not in ctx.shared:
                ctx.shared[BOARD_CC] = board_compiler(ctx.executor)
            if ctx.shared[BOARD_CC] is None:
                return (f"no C compiler on the board ({ctx.executor.name}) to build the "
                        "memory kernel there: install cc, gcc or clang on the board")
            return None
        if compiler() is None:
            return "no C compiler for the memory kernel (apt-get install gcc, or set CC)"
        return None

    def plan(self, settings: Settings) -> Plan:
        return Plan(runs=3, quick_runs=2, seconds=10, quick_seconds=3, run_s=5.0,
                    quick_run_s=2.0, setup_s=1.0)

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

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure import stream

        readings = stream.measure(ctx.scratch["binary"], ctx.scratch["spec"],
                                  passes=self.passes(ctx), runs=1, executor=ctx.executor)
        return TimedRun(tuple(readings))


WORKLOADS = [MemoryStream()]
