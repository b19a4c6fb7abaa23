"""Measure the clock a core really delivers, to check what cpufreq claims.

A chain of dependent integer adds retires one add per cycle on every core this project meets
(x86-64, Cortex-A, SiFive U74, SpacemiT X60), so adds per second is the delivered clock.  The
loop is a tiny C program compiled on first use with the system C compiler and cached.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolError
from ..platform import cpufreq
from ..platform.sysroot import Sysroot
from .cbuild import compiled

ADDS_PER_STEP = 64
SOURCE = r"""
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


@dataclass(frozen=True)
class ClockReading:
    cpu: int
    measured_mhz: float
    cpufreq_mhz: float | None

    @property
    def mismatch_pct(self) -> float | None:
        if not self.cpufreq_mhz:
            return None
        return 100.0 * (self.measured_mhz - self.cpufreq_mhz) / self.cpufreq_mhz


def build(cache: Path) -> Path:
    """Compile the loop once per source version and compiler; returns the binary."""
    return compiled(cache, "realclock", SOURCE)


def parse_output(text: str) -> float:
    """``steps seconds x`` -> delivered MHz."""
    steps, seconds, _ = text.split()
    return int(steps) * ADDS_PER_STEP / float(seconds) / 1e6


MISMATCH_PCT = 3.0


def cluster_cpus(sysroot: Sysroot) -> list[int]:
    """One CPU per cpufreq policy (cluster); the first usable CPU when there is no cpufreq."""
    firsts = [min(p.cpus) for p in cpufreq.policies(sysroot) if p.cpus]
    return firsts or [min(os.sched_getaffinity(0))]


def measure_with_cpufreq(binary: Path, sysroot: Sysroot, cpu: int,
                         seconds: float = 0.3) -> ClockReading:
    """Run the loop on ``cpu`` and read cpufreq's claim while it runs."""
    argv = [str(binary), f"{seconds}"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    time.sleep(seconds / 2)
    claimed = cpufreq.current_khz(sysroot, cpu)
    out, err = proc.communicate(timeout=60)
    if proc.returncode != 0 or not out.strip():
        raise ToolError(argv, proc.returncode, err, "real-clock loop failed")
    return ClockReading(cpu, parse_output(out), claimed / 1000.0 if claimed else None)


def check_clusters(sysroot: Sysroot, cache: Path) -> list[ClockReading]:
    binary = build(cache)
    return [measure_with_cpufreq(binary, sysroot, cpu) for cpu in cluster_cpus(sysroot)]
