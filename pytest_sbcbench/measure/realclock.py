"""Measure the clock a core really delivers, to check what cpufreq claims.

A chain of dependent integer adds retires one add per cycle on every core this project meets
(x86-64, Cortex-A, SiFive U74, SpacemiT X60), so adds per second is the delivered clock.  The
loop is a tiny C program compiled on first use with the system C compiler and cached.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolError
from .tools import run_tool

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


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pytest-sbcbench"


def compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")


def build(cache: Path) -> Path:
    """Compile the loop once per source version and compiler; returns the binary."""
    cc = compiler()
    if cc is None:
        raise ToolError(["cc"], None, "", "no C compiler (cc/gcc) for the real-clock check: "
                        "install one (apt-get install gcc) or set CC")
    digest = hashlib.sha256((SOURCE + cc).encode()).hexdigest()[:16]
    binary = cache / f"realclock-{digest}"
    if binary.exists():
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    src = cache / f"realclock-{digest}.c"
    src.write_text(SOURCE)
    tmp = cache / f".realclock-{digest}.{os.getpid()}"
    run_tool([cc, "-O2", "-o", str(tmp), str(src)], 120, "compiling the real-clock loop",
             expect_output=False)
    os.replace(tmp, binary)
    return binary


def parse_output(text: str) -> float:
    """``steps seconds x`` -> delivered MHz."""
    steps, seconds, _ = text.split()
    return int(steps) * ADDS_PER_STEP / float(seconds) / 1e6


def measure(binary: Path, cpu: int, seconds: float = 0.2) -> float:
    """Delivered MHz of ``cpu``: the loop pinned to that CPU."""
    argv = [str(binary), f"{seconds}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False,
                          preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    if done.returncode != 0 or not done.stdout.strip():
        raise ToolError(argv, done.returncode, done.stderr, "real-clock loop failed")
    return parse_output(done.stdout)
