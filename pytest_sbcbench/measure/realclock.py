"""Measure the clock a core really delivers, to check what cpufreq claims.

A chain of dependent integer adds retires one add per cycle on every core this project meets
(x86-64, Cortex-A, SiFive U74, SpacemiT X60), so adds per second is the delivered clock.  The
loop is a tiny C program compiled on first use with the system C compiler and cached; it pins
itself to the CPU it is given, so it runs through any executor.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ..errors import ToolError
from ..model import ClockReading
from ..platform import cpufreq
from ..platform.executor import Executor, default_executor
from ..platform.host import Host, default_host
from ..platform.sysroot import Sysroot
from .c_helpers import compiled

ADDS_PER_STEP = 64
SOURCE = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define A x += y; __asm__ volatile("" : "+r"(x));
#define A8 A A A A A A A A
#define A64 A8 A8 A8 A8 A8 A8 A8 A8
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
    double target = argc > 1 ? atof(argv[1]) : 0.2;
    if (argc > 2) {
        cpu_set_t set; CPU_ZERO(&set); CPU_SET(atoi(argv[2]), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) { perror("sched_setaffinity"); return 2; }
    }
    unsigned long x = 1, y = (unsigned long)argc, steps = 0;
    double start = now(), elapsed = 0.0;
    while (elapsed < target) {
        for (int i = 0; i < 100000; i++) { A64 }
        steps += 100000;
        elapsed = now() - start;
    }
    printf("%lu %.9f %lu\n", steps, elapsed, x);
    return 0;
}
"""


def build(cache: Path, *, executor: Executor | None = None) -> Path:
    """Compile the loop once per source version and compiler; returns the binary."""
    return compiled(cache, "realclock", SOURCE, executor=executor)


def parse_output(text: str) -> float:
    """``steps seconds x`` -> delivered MHz."""
    steps, seconds, _ = text.split()
    return int(steps) * ADDS_PER_STEP / float(seconds) / 1e6


MISMATCH_PCT = 3.0


def cluster_cpus(sysroot: Sysroot, *, host: Host | None = None) -> list[int]:
    """One CPU per cpufreq policy (cluster); the first usable CPU when there is no cpufreq."""
    firsts = [min(p.cpus) for p in cpufreq.policies(sysroot) if p.cpus]
    allowed = (host if host is not None else default_host()).affinity()
    return firsts or [min(allowed, default=0)]


def measure_with_cpufreq(binary: Path, sysroot: Sysroot, cpu: int, seconds: float = 0.3, *,
                         executor: Executor | None = None,
                         sleep: Callable[[float], None] = time.sleep) -> ClockReading:
    """Run the loop pinned to ``cpu`` and read cpufreq's claim half-way through."""
    argv = [str(binary), f"{seconds}", str(cpu)]
    handle = (executor if executor is not None else default_executor()).spawn(argv)
    try:
        sleep(seconds / 2)
        claimed = cpufreq.current_khz(sysroot, cpu)
        out = "\n".join(handle.lines())
    finally:
        handle.stop()
    try:
        mhz = parse_output(out)
    except (ValueError, ZeroDivisionError) as exc:
        raise ToolError(argv, None, out[-500:], "real-clock loop printed no reading") from exc
    return ClockReading(cpu, mhz, claimed / 1000.0 if claimed else None)


def check_clusters(sysroot: Sysroot, cache: Path, *, executor: Executor | None = None,
                   host: Host | None = None) -> list[ClockReading]:
    """The delivered clock of one CPU per cluster (this machine unless the session passes its
    executor and host)."""
    binary = build(cache, executor=executor)
    return [measure_with_cpufreq(binary, sysroot, cpu, executor=executor)
            for cpu in cluster_cpus(sysroot, host=host)]
