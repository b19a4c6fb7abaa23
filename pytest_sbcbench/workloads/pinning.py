"""Pinning a single-threaded tool to one CPU, where the board allows it.

A tool left to the scheduler may move between CPUs during a run (each move costs it its
caches) and, on a big.LITTLE board, run part of a run on a slower core.  Pinned, every run of
a single-threaded tool runs on the same CPU: the fastest one the run may use (the highest
cpufreq maximum, else every CPU alike), and among equals the highest-numbered one (CPU 0
usually takes more of the interrupts).  The pin goes through the executor, as every command
does: ``taskset -c N`` in front of the tool's command line, found where the commands run
(util-linux, or busybox's applet).  Where that cannot be done the run is not pinned and says
why: one CPU to run on, no ``taskset`` on the board, or a captured tree (its CPUs are not the
ones the commands run on).  What was done is recorded in the results' environment
(``pinning``) and each pinned metric's details (``pinned_cpu``); it is not part of a metric's
identity, so a baseline recorded before pinning still judges a pinned run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import SbcBenchError
from ..workload import Context

SHARED_KEY = "pinning"  # the session's pin, found once (ctx.shared)


@dataclass(frozen=True)
class Pin:
    """A command prefix pinning a tool to ``cpu`` (empty with ``why`` when not pinned)."""

    prefix: tuple[str, ...]
    cpu: int | None
    why: str = ""

    def as_dict(self) -> dict[str, Any]:
        if self.cpu is None:
            return {"cpu": None, "why": self.why}
        return {"cpu": self.cpu, "how": f"taskset -c {self.cpu}"}


def pin_of(ctx: Context) -> Pin:
    """The session's pin for single-threaded tools (found once, kept in ``ctx.shared``)."""
    found = ctx.shared.get(SHARED_KEY)
    if not isinstance(found, Pin):
        found = choose(ctx)
        ctx.shared[SHARED_KEY] = found
    return found


def choose(ctx: Context) -> Pin:
    """Where the board allows it, ``taskset -c N`` for the fastest CPU the run may use."""
    from ..measure.tools import which

    if not ctx.settings.sysroot.is_host and ctx.executor.is_local:
        return Pin((), None, "a captured tree: its CPUs are not this machine's")
    allowed = _allowed(ctx)
    if len(allowed) < 2:
        return Pin((), None, f"{len(allowed) or 'no'} CPU to run on: nothing to choose")
    taskset = which("taskset", executor=ctx.executor)
    if taskset is None:
        return Pin((), None, f"no taskset where the commands run ({ctx.executor.name})")
    cpu = fastest(allowed, _max_khz(ctx))
    return Pin((taskset, "-c", str(cpu)), cpu)


def fastest(allowed: tuple[int, ...], max_khz: dict[int, int]) -> int:
    """The CPU with the highest cpufreq maximum (unknown: 0), the highest-numbered among
    equals."""
    return max(allowed, key=lambda cpu: (max_khz.get(cpu, 0), cpu))


def _allowed(ctx: Context) -> tuple[int, ...]:
    if ctx.executor.is_local:
        return ctx.host.affinity()
    from .remote import board_cpus

    try:
        return board_cpus(ctx.executor)
    except SbcBenchError:  # an unreadable board list: not pinned, said so
        return ()


def _max_khz(ctx: Context) -> dict[int, int]:
    from ..platform.cpufreq import policies

    out: dict[int, int] = {}
    for policy in policies(ctx.settings.sysroot):
        for cpu in policy.cpus:
            if policy.max_khz is not None:
                out[cpu] = policy.max_khz
    return out
