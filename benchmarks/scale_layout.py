"""What the most compact reviewable baseline layout would cost to read (issue 31, item 12).

    python3 benchmarks/scale_layout.py [--metrics 2500] [--boots 1000]

The prototype behind docs/gate.md's "the corner is not met": a layout that keeps one line per
stored session but writes each save's environment once (a table of saves) and each session as
``[save, entry, [samples]]``.  It builds that text for M metrics x B boots of 3 runs (the
samples of benchmarks/scale_judging.py) and measures with ``time.process_time`` what reading it
costs before any decision: ``json.loads`` (no strictness hooks at all), grouping the sessions
by entry, and checking the samples and reducing each session to its log mean and the runs'
sum of squares in C-level passes (``map``, ``sum``, ``min``, ``max``).  Issue 31's target was
2,500 x 1,000 compared in under 5 s of CPU; these three steps alone exceed it on the
development VM.  A figure, not a test; nothing of the package reads this layout.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
from collections.abc import Sequence
from itertools import repeat
from operator import mul, truediv
from typing import Any

from scale_judging import environment, identity, samples, test_name

RUNS = 3


def layout(metrics: int, boots: int) -> str:
    line = json.JSONEncoder(allow_nan=False).encode
    entries = ",\n".join(line({"test": test_name(i), "metric": "throughput", "unit": "B/s",
                               "better": "higher", "identity": identity(i).as_dict()})
                         for i in range(metrics))
    saves = ",\n".join(line({"created": f"boot {b}", "environment": environment(b)})
                       for b in range(boots))
    sessions = ",\n".join(line([b, i, samples(i, b)]) for b in range(boots)
                          for i in range(metrics))
    return (f'{{"schema": "prototype", "board": "star64", "entries": [\n{entries}\n],\n'
            f'"saves": [\n{saves}\n],\n"sessions": [\n{sessions}\n]}}\n')


def reduce_entry(rows: list[list[float]]) -> tuple[list[float], float]:
    """Each session's log mean and the runs' sum of squares about them (3 runs a session)."""
    flat = [v for r in rows for v in r]
    if not all(map(float.__instancecheck__, flat)) or not 1e-100 <= min(flat) <= max(flat) <= 1e100:
        raise ValueError("not a sample")
    logs = list(map(math.log, map(truediv, flat, repeat(flat[0]))))
    sums = list(map(sum, zip(*[iter(logs)] * RUNS, strict=True)))
    means = [s / RUNS for s in sums]
    return means, sum(map(mul, logs, logs)) - sum(map(mul, sums, means))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=int, default=2500)
    parser.add_argument("--boots", type=int, default=1000)
    args = parser.parse_args(argv)
    text = layout(args.metrics, args.boots)
    print(f"{args.metrics} metrics x {args.boots} boots: {len(text) / 2**20:.0f} MiB")
    gc.disable()  # as the package reads a baseline
    start = time.process_time()
    doc: dict[str, Any] = json.loads(text)
    loaded = time.process_time()
    per: list[list[list[float]]] = [[] for _ in doc["entries"]]
    for _, entry, values in doc["sessions"]:
        per[entry].append(values)
    grouped = time.process_time()
    reduced = [reduce_entry(rows) for rows in per]
    done = time.process_time()
    assert len(reduced) == args.metrics
    print(f"json.loads {loaded - start:.2f} s, grouping {grouped - loaded:.2f} s, checking and "
          f"reducing {done - grouped:.2f} s: {done - start:.2f} s CPU before any decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
