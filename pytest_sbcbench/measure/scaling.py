"""Thread scaling: the same CPU-bound work at 1, 2, 4, ... threads up to the CPU count."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import ToolError
from ..model import Identity, Measurement
from ..platform.executor import Executor
from . import sysbench
from .openssl import DEFAULT_BLOCK, OpensslTool, speed_argv, throughput_samples
from .sanity import checked
from .tools import run_tool, which

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
    """``openssl speed -multi N -evp sha256 -bytes 16384``: the combined total, bytes/s.

    One thread runs with ``-elapsed``: without it ``openssl speed`` divides its work by the
    user CPU time it got, while the ``-multi`` parent's total is per second of wall time (each
    child's count over the run's seconds), so on a busy board the 1-thread figure kept its
    full speed while the N-thread totals lost theirs, and speed-up and efficiency mixed two
    clocks.  Both are wall time now; the identity says so (``clock``)."""
    argv = speed_argv(tool, SCALING_ALGORITHM, seconds)
    argv[2:2] = ["-multi", str(threads)] if threads > 1 else ["-elapsed"]
    samples = throughput_samples(tool, argv, SCALING_ALGORITHM, DEFAULT_BLOCK, seconds, runs,
                                 f"{SCALING_ALGORITHM} total of {threads} threads")
    identity = Identity.of(tool="openssl", version=tool.version, workload="speed -multi",
                           algorithm=SCALING_ALGORITHM, block_bytes=DEFAULT_BLOCK, threads=threads,
                           seconds=seconds, clock="wall")
    return Measurement("scaling-openssl-sha256", "B/s", "higher", identity, samples,
                       label=f"openssl sha256 x{threads}")


def sysbench_cpu(threads: int, seconds: int, runs: int, max_prime: int = 20000, *,
                 executor: Executor | None = None) -> Measurement:
    """sysbench cpu with the syntax of the installed version (0.4 or 1.x)."""
    path = which("sysbench", executor=executor)
    if path is None:
        raise FileNotFoundError("sysbench")
    version = sysbench.parse_version(run_tool([path, "--version"], 30, "sysbench --version",
                                                 executor=executor))
    argv = [path, *sysbench.cpu_argv(version, threads, max_prime, seconds)[1:]]
    samples = []
    for _ in range(runs):
        output = run_tool(argv, 60 + 5 * seconds, "sysbench cpu",
                          executor=executor)
        parsed = sysbench.parse_sysbench(output)
        if parsed.events_per_second is None:
            raise ToolError(argv, 0, output[-2000:], "sysbench cpu reported no events per "
                                                     f"second (a {parsed.test} result?)")
        samples.append(checked(parsed.events_per_second, "op/s", argv,
                               "sysbench cpu reported events per second", output=output))
    identity = Identity.of(tool="sysbench", version=version, workload="cpu",
                           max_prime=max_prime, threads=threads, seconds=seconds)
    return Measurement("scaling-sysbench-cpu", "op/s", "higher", identity, tuple(samples),
                       label=f"sysbench cpu x{threads}")


def stress_ng_matrixprod(threads: int, seconds: int, runs: int, *,
                         executor: Executor | None = None) -> Measurement:
    """stress-ng --cpu N --cpu-method matrixprod: FP/SIMD work, bogo-ops per second."""
    path = which("stress-ng", executor=executor)
    if path is None:
        raise FileNotFoundError("stress-ng")
    argv = [path, "--cpu", str(threads), "--cpu-method", "matrixprod", "--metrics-brief",
            "--timeout", f"{seconds}s"]
    asked = [path, "--version"]
    version = parse_stress_ng_version(run_tool(asked, 30, "stress-ng --version",
                                               with_stderr=True, executor=executor), asked)
    samples = []
    for _ in range(runs):
        # stress-ng writes its metrics to stderr
        output = run_tool(argv, 60 + 5 * seconds, "stress-ng", with_stderr=True,
                          executor=executor)
        samples.append(parse_stress_ng(output, argv))
    identity = Identity.of(tool="stress-ng", version=version, workload="cpu matrixprod",
                           threads=threads, seconds=seconds)
    return Measurement("scaling-stress-ng-matrixprod", "op/s", "higher", identity,
                       tuple(samples), label=f"stress-ng matrixprod x{threads}")


# ``stress-ng: [HH:MM:SS.ss ]metrc: [pid] cpu  <bogo ops> <real> <usr> <sys> <bogo ops/s real>
# ...``; releases before 0.15 print the same table under ``info:`` (one or two spaces after it)
STRESS_NG_CPU_ROW = re.compile(r"^stress-ng:\s+(?:\S+\s+)?(?:metrc|info):\s+\[\d+\]\s+cpu"
                               r"\s+(?P<cells>\d+(?:\s+\S+){4,})\s*$")
# ``--syslog`` sends each line to syslog as ``metrc: [pid] cpu ...`` under the ident stress-ng
# (openlog("stress-ng", 0, LOG_USER)): on the socket ``<14>Dec  1 22:08:03 stress-ng: metrc:
# ...``, in a syslog file ``Dec  1 22:08:03 HOST stress-ng: metrc: ...``, in ``journalctl``
# ``Dec 01 22:08:03 HOST stress-ng[PID]: metrc: ...`` (or an ISO 8601 time with -o short-iso)
SYSLOG_PREFIX = re.compile(r"^(?:<\d{1,3}>)?(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"
                           r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
                           r"\s+(?:\S+\s+)?stress-ng(?:\[\d+\])?:\s+(?:stress-ng:\s+)?")


def _unprefixed(line: str) -> str:
    """A stress-ng line as stress-ng prints it, whether it was printed or logged through
    syslog/journald (the logger's time, host and tag taken off)."""
    found = SYSLOG_PREFIX.match(line)
    return line if found is None else "stress-ng: " + line[found.end():]


def parse_stress_ng(text: str, argv: Sequence[str]) -> float:
    """The ``bogo ops/s (real time)`` of the cpu stressor from --metrics-brief output, under
    the ``metrc:`` tag (0.15 and later) or ``info:`` (older releases): the fifth column after
    ``cpu`` (bogo ops, real, usr, sys time, bogo ops/s real, usr+sys), read as printed and
    checked (NaN, zero, negative or absurd is a :class:`ToolError`).  Lines behind a syslog or
    journald prefix (``--syslog``, ``journalctl``) are read as the same lines."""
    for line in text.splitlines():
        row = STRESS_NG_CPU_ROW.match(_unprefixed(line.strip()))
        if row is None:
            continue
        try:
            value = float(row.group("cells").split()[4])
        except ValueError:
            continue
        return checked(value, "op/s", argv, "stress-ng cpu bogo ops/s (real time)",
                       output=text)
    raise ToolError(argv, 0, text[-500:], "stress-ng printed no cpu metrics line")


def parse_stress_ng_version(text: str, argv: Sequence[str]) -> str:
    """``stress-ng, version 0.15.06 (gcc 12.2.0, x86_64 Linux ...)`` -> ``0.15.06``."""
    match = re.match(r"\s*stress-ng,?\s+version\s+(\d+\.\d+(?:\.\d+)?)\b", text)
    if not match:
        raise ToolError(argv, 0, text[-500:], "stress-ng --version printed no "
                                              "'stress-ng, version X.Y.Z' banner")
    return match.group(1)
