"""A STREAM-style memory bandwidth kernel whose arrays can never sit in cache.

sysbench's 1 MB blocks measured cache (40.4 GB/s "from" DDR3-1333).  Here every array is at
least 4x the last-level cache read from the sysroot's cache topology, and a smaller request is
refused, not reported.  The C program is compiled on first use and cached."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import SbcBenchError, ToolError
from ..model import Identity, Measurement
from ..platform.executor import Executor
from .c_helpers import Compiled, compiled_on_board, compiled_with_identity
from .sanity import checked
from .tools import run_tool

MIN_LLC_MULTIPLE = 4
FLAGS = ("-O3",)
KERNELS = {"read": "memory-read", "write": "memory-write", "copy": "memory-copy",
           "triad": "memory-triad"}
SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
int main(int argc, char **argv) {
    size_t n = (size_t)atoll(argv[1]);
    int passes = atoi(argv[2]);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) { fprintf(stderr, "out of memory\n"); return 1; }
    for (size_t i = 0; i < n; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.5; }
    double best[4] = {0, 0, 0, 0}, sink = 0.0, s = 3.0;
    for (int p = 0; p < passes; p++) {
        double t = now(), sum = 0.0;
        for (size_t i = 0; i < n; i++) sum += a[i];
        double r = 8.0 * n / (now() - t); if (r > best[0]) best[0] = r; sink += sum;
        t = now(); for (size_t i = 0; i < n; i++) b[i] = s + p;
        r = 8.0 * n / (now() - t); if (r > best[1]) best[1] = r;
        t = now(); for (size_t i = 0; i < n; i++) c[i] = a[i];
        r = 16.0 * n / (now() - t); if (r > best[2]) best[2] = r;
        t = now(); for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        r = 24.0 * n / (now() - t); if (r > best[3]) best[3] = r;
        sink += a[n / 2] + b[n / 3] + c[n / 4];
    }
    printf("read %.0f\nwrite %.0f\ncopy %.0f\ntriad %.0f\nsink %g\n",
           best[0], best[1], best[2], best[3], sink);
    return 0;
}
"""


@dataclass(frozen=True)
class BufferPlan:
    buffer_bytes: int
    llc_bytes: int
    llc_source: str


def plan(llc_bytes: int | None, requested: int | None = None) -> BufferPlan:
    """Array size: at least 4x the LLC; a smaller explicit request is refused."""
    llc, source = (llc_bytes, "sysfs cache topology") if llc_bytes else \
        (32 * 2**20, "assumed 32 MiB: no cache topology in the sysroot")
    floor = MIN_LLC_MULTIPLE * llc
    if requested is not None and requested < floor:
        raise SbcBenchError(
            f"memory buffer {requested / 2**20:.0f} MiB would be cache-resident: arrays must be "
            f"at least {MIN_LLC_MULTIPLE}x the {llc / 2**20:.0f} MiB last-level cache "
            f"({floor / 2**20:.0f} MiB); refused, not reported")
    return BufferPlan(max(requested or 0, floor), llc, source)


def build(cache: Path, *, executor: Executor | None = None) -> Compiled:
    """The kernel binary with the compiler, version and flags that built it: on this machine
    in ``cache``; on a remote board (a non-local ``executor``) with the board's compiler, in
    the board's cache (the kernel times itself with the board's monotonic clock, so no
    round trip is in its numbers)."""
    if executor is not None and not executor.is_local:
        return compiled_on_board(executor, "stream", SOURCE, FLAGS)
    return compiled_with_identity(cache, "stream", SOURCE, FLAGS, executor=executor)


def parse_output(text: str, argv: Sequence[str]) -> dict[str, float]:
    """The four rates in B/s; a missing, unreadable or unbelievable one (NaN, inf, zero,
    negative, absurd) is a :class:`ToolError` showing ``argv``."""
    out = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in KERNELS:
            try:
                out[name] = float(value)
            except ValueError:
                raise ToolError(argv, 0, text, f"memory kernel printed {line!r}: "
                                               "not a number") from None
    missing = sorted(set(KERNELS) - set(out))
    if missing:
        raise ToolError(argv, 0, text, f"memory kernel printed no {', '.join(missing)} rate")
    return {name: checked(value, "B/s", argv, f"memory kernel {name} rate", output=text)
            for name, value in out.items()}


def measure(kernel_binary: Compiled, spec: BufferPlan, passes: int, runs: int, *,
            executor: Executor | None = None) -> list[Measurement]:
    n = spec.buffer_bytes // 8
    argv = [str(kernel_binary.path), str(n), str(passes)]
    series: dict[str, list[float]] = {k: [] for k in KERNELS}
    for _ in range(runs):
        rates = parse_output(run_tool(argv, 600, "memory kernel", executor=executor), argv)
        for kernel, rate in rates.items():
            series[kernel].append(rate)
    return [Measurement(metric, "B/s", "higher",
                        Identity.of(tool="sbcbench-stream", kernel=kernel,
                                    buffer_bytes=spec.buffer_bytes, llc_bytes=spec.llc_bytes,
                                    passes=passes, threads=1,
                                    compiler=kernel_binary.compiler,
                                    compiler_version=kernel_binary.compiler_version,
                                    flags=" ".join(kernel_binary.flags)),
                        tuple(series[kernel]), label=f"{metric} ({spec.buffer_bytes >> 20} MiB)",
                        details={"llc_source": spec.llc_source,
                                 "buffer_llc_multiple": spec.buffer_bytes / spec.llc_bytes})
            for kernel, metric in KERNELS.items()]
