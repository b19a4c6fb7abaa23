"""Sampler overhead: what continuous sampling costs the benchmark it watches, with many other
processes on the machine (issue 31 item 11).

    python3 benchmarks/sampler_overhead.py [--rounds 5] [--seconds 5] [--interval 1.0]
                                           [--others 1000] [--sysroot DIR]

Starts ``--others`` sleeping processes outside this process's tree (they belong to init once
their shell exits; all are ended by their process group at the end), then runs interleaved
rounds of ``openssl speed -evp sha256`` without and with a sampler, and prints:
- the sampler thread's own CPU time as a share of one core, and the part of it spent
  attributing background load (scans of every process: only while the load beside the
  benchmark is above 0.25 CPUs, so never on an idle host); the budget, 0.2% at 1 s whatever
  the process count, is for the readings (the figure without the scans);
- openssl throughput with the sampler against without it (1.000 means no measurable effect).
A figure, not a test: the numbers depend on the machine and on what else runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from pytest_sbcbench.measure import openssl
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.platform.sysroot import Sysroot

BUDGET_PCT = 0.2


def throughput(tool: openssl.OpensslTool, seconds: int) -> float:
    return openssl.measure_throughput(tool, "sha256", seconds=seconds, runs=1).samples[0]


@contextlib.contextmanager
def other_processes(count: int) -> Iterator[int]:
    """``count`` sleeping processes outside this tree (their shell exits, so init adopts
    them); yields how many processes the machine then has, and ends them by group."""
    shell = subprocess.Popen(["sh", "-c", f"i=0; while [ $i -lt {count} ]; do sleep 3600 & "
                              "i=$((i+1)); done"], start_new_session=True)
    shell.wait()
    try:
        yield sum(1 for name in os.listdir("/proc") if name.isdigit())
    finally:
        if count:
            os.killpg(shell.pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--others", type=int, default=1000)
    parser.add_argument("--sysroot", type=Path, default=Path("/"))
    args = parser.parse_args()
    path = openssl.find_openssl()
    if path is None:
        raise SystemExit("openssl not found on PATH")
    tool = openssl.openssl_tool(path)
    plain: list[float] = []
    sampled: list[float] = []
    thread_cpu = scan_cpu = wall = 0.0
    scans = readings = 0
    with other_processes(args.others) as on_machine:
        for _ in range(args.rounds):
            plain.append(throughput(tool, args.seconds))
            sampler = Sampler(Sysroot(args.sysroot), args.interval)
            start = time.monotonic()
            sampler.start()
            sampled.append(throughput(tool, args.seconds))
            trace = sampler.stop()
            wall += time.monotonic() - start
            thread_cpu += sampler.thread_cpu_s
            scan_cpu += sampler.background.scan_cpu_s
            scans += sampler.background.scans
            readings += len(trace.readings)
    ratio = statistics.median(sampled) / statistics.median(plain)
    steady = 100 * (thread_cpu - scan_cpu) / wall
    print(f"sysroot {args.sysroot}, interval {args.interval} s, {args.rounds} rounds of "
          f"openssl speed -evp sha256 -seconds {args.seconds}, {on_machine} processes on the "
          f"machine ({args.others} started for this)")
    print(f"readings                {readings} ({scans} scans of every process, for "
          "attribution)")
    print(f"sampler thread CPU      {100 * thread_cpu / wall:.3f}% of one core")
    print(f"  attribution scans     {100 * scan_cpu / wall:.3f}% (only under background load)")
    print(f"  readings              {steady:.3f}% (budget {BUDGET_PCT}%: "
          f"{'within' if steady < BUDGET_PCT else 'OVER'})")
    print(f"throughput without      {statistics.median(plain) / 1e6:.1f} MB/s")
    print(f"throughput with         {statistics.median(sampled) / 1e6:.1f} MB/s")
    print(f"with / without          {ratio:.4f}")


if __name__ == "__main__":
    main()
