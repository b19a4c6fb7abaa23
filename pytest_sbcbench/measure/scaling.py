"""Thread scaling: the same CPU-bound work at 1, 2, 4, ... threads up to the CPU count."""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from ..errors import ToolError
from ..model import Identity, Measurement
from ..platform.executor import Executor
from . import sysbench
from .openssl import DEFAULT_BLOCK, OpensslTool, speed_argv, throughput_samples
from .tools import run_tool

SCALING_ALGORITHM = "sha256"


def thread_counts(cpus: int) -> list[int]:
    """1, 2, 4, ... and the CPU count itself."""
    counts = [1]
    while counts[-1] * 2 <= cpus:
        counts.append(counts[-1] * 2)
    if counts[-1] != cpus:
        counts.append(cpus)
    return counts


def efficiency(rates: dict[int, float]) -> dict[int, float]:
    """Speed-up over one thread divided by the thread count (1.0 is perfect)."""
    one = rates[1]
    return {n: rate / one / n for n, rate in rates.items()}


def openssl_multi(tool: OpensslTool, threads: int, seconds: int, runs: int) -> Measurement:
    """``openssl speed -multi N -evp sha256 -bytes 16384``: the combined total, bytes/s."""
    argv = speed_argv(tool, SCALING_ALGORITHM, seconds)
    if threads > 1:
        argv[2:2] = ["-multi", str(threads)]
    samples = throughput_samples(tool, argv, SCALING_ALGORITHM, DEFAULT_BLOCK, seconds, runs,
                                 f"{SCALING_ALGORITHM} total of {threads} threads")
    identity = Identity.of(tool="openssl", version=tool.version, workload="speed -multi",
                           algorithm=SCALING_ALGORITHM, block_bytes=DEFAULT_BLOCK, threads=threads,
                           seconds=seconds)
    return Measurement("scaling-openssl-sha256", "B/s", "higher", identity, samples,
                       label=f"openssl sha256 x{threads}")


def sysbench_cpu(threads: int, seconds: int, runs: int, max_prime: int = 20000, *,
                 executor: Executor | None = None) -> Measurement:
    """sysbench cpu with the syntax of the installed version (0.4 or 1.x)."""
    path = shutil.which("sysbench")
    if path is None:
        raise FileNotFoundError("sysbench")
    version = sysbench.parse_version(run_tool([path, "--version"], 30, "sysbench --version",
                                                 executor=executor))
    argv = [path, *sysbench.cpu_argv(version, threads, max_prime, seconds)[1:]]
    samples = []
    for _ in range(runs):
        parsed = sysbench.parse_sysbench(run_tool(argv, 60 + 5 * seconds, "sysbench cpu",
                                                    executor=executor))
        if not parsed.events_per_second or parsed.events_per_second <= 0:
            raise ToolError(argv, 0, "", f"sysbench cpu reported {parsed.events_per_second} "
                                         f"events per second (a {parsed.test} result?)")
        samples.append(parsed.events_per_second)
    identity = Identity.of(tool="sysbench", version=version, workload="cpu",
                           max_prime=max_prime, threads=threads, seconds=seconds)
    return Measurement("scaling-sysbench-cpu", "op/s", "higher", identity, tuple(samples),
                       label=f"sysbench cpu x{threads}")


def stress_ng_matrixprod(threads: int, seconds: int, runs: int, *,
                         executor: Executor | None = None) -> Measurement:
    """stress-ng --cpu N --cpu-method matrixprod: FP/SIMD work, bogo-ops per second."""
    path = shutil.which("stress-ng")
    if path is None:
        raise FileNotFoundError("stress-ng")
    argv = [path, "--cpu", str(threads), "--cpu-method", "matrixprod", "--metrics-brief",
            "--timeout", f"{seconds}s"]
    samples = []
    for _ in range(runs):
        # stress-ng writes its metrics to stderr
        output = run_tool(argv, 60 + 5 * seconds, "stress-ng", with_stderr=True,
                          executor=executor)
        samples.append(parse_stress_ng(output, argv))
    identity = Identity.of(tool="stress-ng", workload="cpu matrixprod", threads=threads,
                           seconds=seconds)
    return Measurement("scaling-stress-ng-matrixprod", "op/s", "higher", identity,
                       tuple(samples), label=f"stress-ng matrixprod x{threads}")


def parse_stress_ng(text: str, argv: Sequence[str]) -> float:
    """The ``bogo ops/s (real time)`` of the cpu stressor from --metrics-brief output."""
    for line in text.splitlines():
        parts = line.split()
        if "cpu" in parts and "metrc:" in parts:
            numbers = [p for p in parts if p.replace(".", "", 1).isdigit()]
            if len(numbers) >= 5:
                return float(numbers[4])
    raise ToolError(argv, 0, text[-500:], "stress-ng printed no cpu metrics line")
