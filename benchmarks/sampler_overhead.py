"""Sampler overhead: what continuous sampling costs the benchmark it watches.

    python3 benchmarks/sampler_overhead.py [--rounds 5] [--seconds 3] [--interval 1.0]
                                           [--sysroot DIR]

Prints two figures:
- the sampler thread's own CPU time as a share of one core (the budget is 0.5%);
- openssl speed throughput with the sampler running against without it, interleaved A/B
  rounds in one run (1.000 means no measurable effect).
A figure, not a test: the numbers depend on the machine and on what else runs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from pytest_sbcbench.measure import openssl
from pytest_sbcbench.measure.sampler import Sampler
from pytest_sbcbench.platform.sysroot import Sysroot


def throughput(tool: openssl.OpensslTool, seconds: int) -> float:
    return openssl.measure_throughput(tool, "sha256", seconds=seconds, runs=1).samples[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--sysroot", type=Path, default=Path("/"))
    args = parser.parse_args()
    path = openssl.find_openssl()
    if path is None:
        raise SystemExit("openssl not found on PATH")
    tool = openssl.openssl_tool(path)
    plain: list[float] = []
    sampled: list[float] = []
    thread_cpu = wall = 0.0
    for _ in range(args.rounds):
        plain.append(throughput(tool, args.seconds))
        sampler = Sampler(Sysroot(args.sysroot), args.interval)
        start = time.monotonic()
        sampler.start()
        sampled.append(throughput(tool, args.seconds))
        trace = sampler.stop()
        wall += time.monotonic() - start
        thread_cpu += sampler.thread_cpu_s
    ratio = statistics.median(sampled) / statistics.median(plain)
    print(f"sysroot {args.sysroot}, interval {args.interval} s, {args.rounds} rounds of "
          f"openssl speed -evp sha256 -seconds {args.seconds}")
    print(f"samples per round       {len(trace.readings)}")
    print(f"sampler thread CPU      {100 * thread_cpu / wall:.3f}% of one core (budget 0.5%)")
    print(f"throughput without      {statistics.median(plain) / 1e6:.1f} MB/s")
    print(f"throughput with         {statistics.median(sampled) / 1e6:.1f} MB/s")
    print(f"with / without          {ratio:.4f}")


if __name__ == "__main__":
    main()
