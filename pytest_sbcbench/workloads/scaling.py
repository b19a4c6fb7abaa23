"""Thread scaling: the same CPU-bound work at 1, 2, 4, ... threads up to the CPU count, with
efficiency against one thread and what the extra threads are (SMT siblings, another cluster).
One timed run is one pass over every thread count.  The seeds: the Star64 scales 2.00x at 2 and
3.93x at 4; the MacBook's Hyper-Threading adds nothing to FP work (1.51x at 2 and at 4)."""

from __future__ import annotations

import dataclasses
import os
import statistics
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..model import Identity, Measurement
from ..words import counted
from ..workload import BaseWorkload, Context, Plan, TimedRun
from . import crypto

if TYPE_CHECKING:
    from ..platform.sysroot import Sysroot
    from ..settings import Settings

Measure = Callable[[Context, int], Measurement]


def cpus(ctx: Context) -> int:
    """CPUs the workload may run on, where its commands run: on a remote board the board's
    own affinity read there (:func:`.remote.board_cpus`; the kernel's list keeps a CPU that
    is offline, as with ``maxcpus=1``: the thread counts stay the board's, and a lost core
    shows as lost throughput at the same counts, see :func:`online_cpus`); here the host's
    affinity, else (a captured tree without a status file) every processor its cpuinfo lists.
    Read once per test, so every run of it uses the same thread counts."""
    if "cpus" not in ctx.scratch:
        ctx.scratch["cpus"] = _cpus(ctx)
    found: int = ctx.scratch["cpus"]
    return found


def _cpus(ctx: Context) -> int:
    if not ctx.executor.is_local:
        from .remote import board_cpus

        return len(board_cpus(ctx.executor, ctx.sysroot))
    allowed = ctx.host.affinity()
    if allowed:
        return len(allowed)
    from ..platform.probe import probe

    return max(1, probe(ctx.sysroot).cpus)


def plan_cpus(sysroot: Sysroot) -> int:
    """The CPU count a plan estimates with, from the run's sysroot (the plan sees no
    executor): this machine's affinity when the sysroot is this machine, else the tree's
    present CPU list (a labgrid run's sysroot is the board's capture; a CPU kept offline
    still gets its thread count, :func:`cpus`), else its online list, else its processors."""
    if sysroot.is_host:
        return len(os.sched_getaffinity(0)) or 1
    for name in ("present", "online"):
        found = cpu_list(sysroot, name)
        if found:
            return len(found)
    from ..platform.probe import probe

    return max(1, probe(sysroot).cpus)


def cpu_list(sysroot: Sysroot, name: str) -> tuple[int, ...]:
    """The tree's ``present`` or ``online`` CPU list; () when absent or unreadable."""
    from ..platform.cpufreq import parse_cpu_list
    from ..platform.sysroot import CPU_DIR

    try:
        return parse_cpu_list(sysroot.read(f"{CPU_DIR}/{name}", default="").strip())
    except ValueError:
        return ()


def online_cpus(sysroot: Sysroot) -> int | None:
    """How many CPUs this boot has online (the run's sysroot: the board's capture of this
    boot on a labgrid run); None when the tree does not say."""
    return len(cpu_list(sysroot, "online")) or None


def threads_are(sysroot: Sysroot, threads: int, online: int | None) -> str:
    """What ``threads`` threads run on, and whether they share fewer online CPUs."""
    from ..platform.topology import describe_threads

    shown = describe_threads(sysroot, threads)
    if online is not None and online < threads:
        shown += (f"; {threads} threads share {counted(online, 'online CPU')}: the others are "
                  "offline in this boot")
    return shown


class Scaling(BaseWorkload):
    markers = ("scaling",)
    description = "throughput against thread count"

    def __init__(self, name: str, test: str, tool: str, measure: Measure) -> None:
        self.name = name
        self.test = test
        self.tool = tool
        self.measure = measure

    @property
    def param(self) -> str:
        return ""

    def available(self, ctx: Context) -> str | None:
        if self.tool == "openssl":
            return crypto.available_openssl(ctx)
        from ..measure.tools import which

        if which(self.tool, executor=ctx.executor) is None:
            return f"{self.tool} not installed (apt-get install {self.tool})"
        return None

    def plan(self, settings: Settings) -> Plan:
        """Expected times for the listing, estimated from the CPU count of the run's sysroot
        (the board's on a labgrid run; :func:`plan_cpus`)."""
        from ..measure.scaling import thread_counts

        steps = len(thread_counts(plan_cpus(settings.sysroot)))
        return Plan(runs=3, quick_runs=2, seconds=3, quick_seconds=1, run_s=3.0 * steps,
                    quick_run_s=1.0 * steps)

    def identity(self, ctx: Context) -> Identity:
        return Identity.of(tool=self.tool)

    def timed_run(self, ctx: Context) -> TimedRun:
        from ..measure.scaling import thread_counts

        return TimedRun(tuple(self.measure(ctx, n) for n in thread_counts(cpus(ctx))))

    def finish(self, ctx: Context, measurements: list[Measurement]) -> list[Measurement]:
        from ..measure.scaling import efficiency

        def threads(m: Measurement) -> int:
            return int(m.identity.as_dict()["threads"] or 1)
        rates = {threads(m): statistics.median(m.samples) for m in measurements}
        eff = efficiency(rates)
        online = online_cpus(ctx.sysroot)
        return [dataclasses.replace(m, details={
            **m.details, "speedup": rates[threads(m)] / rates[1], "efficiency": eff[threads(m)],
            "online_cpus": online, "threads_are": threads_are(ctx.sysroot, threads(m), online)})
            for m in measurements]


def _openssl(ctx: Context, n: int) -> Measurement:
    from ..measure.scaling import openssl_multi

    return openssl_multi(crypto.tool(ctx), n, ctx.seconds, 1)


def _sysbench(ctx: Context, n: int) -> Measurement:
    from ..measure.scaling import sysbench_cpu

    return sysbench_cpu(n, ctx.seconds, 1, executor=ctx.executor)


def _stress_ng(ctx: Context, n: int) -> Measurement:
    from ..measure.scaling import stress_ng_matrixprod

    return stress_ng_matrixprod(n, ctx.seconds, 1, executor=ctx.executor)


WORKLOADS = [
    Scaling("scaling-openssl", "test_openssl_scaling", "openssl", _openssl),
    Scaling("scaling-sysbench", "test_sysbench_scaling", "sysbench", _sysbench),
    Scaling("scaling-stress-ng", "test_stress_ng_matrixprod_scaling", "stress-ng", _stress_ng),
]
