"""Judging and saving at scale: CPU time against metrics and baseline boots (issue 31, item 12).

    python3 benchmarks/scale_judging.py [--metrics 250 2500] [--boots 100 1000] [--repeat 1]

For each cell (M metrics, B baseline boots of 3 runs each) it builds a baseline file of M
entries with B sessions each (the environment a save records about a boot: boot id, kernel
release, CPU model and count; a real one also carries the system checks and clocks, which only
make the file larger), then measures with ``time.process_time`` (CPU time of this process):

- ``load``: reading and validating the file (:func:`judge.baseline.load_baseline`);
- ``judge``: ``sbcbench compare``'s judging of one candidate session of M results against it
  (:func:`report.compare.compare`: every metric's decision, Holm's later steps, the suite mean);
- ``save``: appending one more session of M results under the lock, atomically
  (:func:`judge.baseline.append_session_locked`: re-read, add, write), as a run saves: the
  baseline it loaded is still held, so the re-read of unchanged bytes costs their SHA-256,
  not a parse;
- ``save, changed``: the same after another run changed the file since (here: a newline
  appended), so the re-read parses it again: about ``load`` + ``save``.

It prints one row per cell and, for each axis, the growth factor of each phase when that axis
grows 10x: linear is about 10, quadratic about 100.  The targets (issue 31): linear growth;
2,500 metrics x 1,000 boots judged in under 5 s and saved in under 1 s of CPU.  That corner
(2.5 million sessions) is a file of 529 MiB, over the 256 MiB the project reads
(``fileio.MAX_INPUT_BYTES``): the cell says so and is skipped.  A figure, not a test
(tests/test_baseline_scale.py counts the operations instead).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pytest_sbcbench.fileio import MAX_INPUT_BYTES
from pytest_sbcbench.judge.baseline import (
    BASELINE_SCHEMA,
    Baseline,
    append_session_locked,
    load_baseline,
)
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.report.compare import compare

BOARD = "star64"
RUNS = 3
T = TypeVar("T")


def test_name(i: int) -> str:
    return f"benchmarks/test_scale.py::test_metric[{i}]"


def identity(i: int) -> Identity:
    return Identity.of(tool="scale", version="1", case=i, seconds=1)


def samples(i: int, boot: int) -> list[float]:
    level = 1e6 * (1 + i % 7) * (1 + 0.003 * ((boot * 7 + i) % 5 - 2))
    return [level * (1 + 0.001 * r) for r in range(RUNS)]


def environment(boot: int) -> dict[str, object]:
    return {"boot_id": f"{boot:08x}-0000-4000-8000-{boot:012x}", "kernel_release": "6.1.0-57",
            "cpu_model": "sifive,u74-mc", "cpus": 4}


def baseline_document(metrics: int, boots: int) -> dict[str, object]:
    entries = [{"test": test_name(i), "metric": "throughput", "unit": "B/s", "better": "higher",
                "identity": identity(i).as_dict(),
                "sessions": [{"created": f"boot {b}", "samples": samples(i, b),
                              "environment": environment(b)} for b in range(boots)]}
               for i in range(metrics)]
    return {"schema": BASELINE_SCHEMA, "board": BOARD, "entries": entries}


def candidate(metrics: int, boot: int) -> list[Result]:
    out = []
    for i in range(metrics):
        values = tuple(samples(i, boot))
        m = Measurement("throughput", "B/s", "higher", identity(i), values)
        out.append(Result(test_name(i), m, summarize(values), Verdict("no-baseline", "")))
    return out


def cpu(work: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = work()
    return time.process_time() - start, value


def cell(directory: Path, metrics: int, boots: int) -> dict[str, float] | None:
    """The CPU seconds of each phase; None when the file would exceed the largest input the
    project reads (fileio.MAX_INPUT_BYTES): such a baseline cannot exist."""
    path = directory / f"{BOARD}.json"
    text = json.dumps(baseline_document(metrics, boots))
    if len(text) > MAX_INPUT_BYTES:
        print(f"{metrics:>8} {boots:>6} {metrics * boots:>9}  not measured: the file would be "
              f"{len(text) / 2**20:.0f} MiB, over the {MAX_INPUT_BYTES / 2**20:.0f} MiB any "
              "baseline may be (fileio.MAX_INPUT_BYTES)", flush=True)
        return None
    path.write_text(text)
    del text
    load_s, loaded = cpu(lambda: load_baseline(path, BOARD))
    assert isinstance(loaded, Baseline)
    results = candidate(metrics, boots)
    env = environment(boots)
    judge_s, judged = cpu(lambda: compare(loaded, BOARD, env, results, {}))
    assert len(judged.verdicts) == metrics
    save_s, saved = cpu(lambda: append_session_locked(path, BOARD, results, "new", env))
    path.write_bytes(path.read_bytes() + b"\n")  # another run's change: parsed again
    changed_s, _ = cpu(lambda: append_session_locked(path, BOARD, results, "newer", env))
    assert loaded.board == saved.board
    return {"load": load_s, "judge": judge_s, "save": save_s, "save_changed": changed_s,
            "mib": path.stat().st_size / 2**20}


PHASES = ("load", "judge", "save", "save_changed")


def growth(rows: dict[tuple[int, int], dict[str, float]], metrics: Sequence[int],
           boots: Sequence[int]) -> list[str]:
    """Per phase, the factor each 10x (or other) step of one axis multiplied its CPU time by,
    over the cells measured."""
    lines = []
    for phase in PHASES:
        parts = []
        for b in boots:
            low, high = rows.get((metrics[0], b)), rows.get((metrics[-1], b))
            if low and high and low[phase] > 0:
                parts.append(f"metrics x{metrics[-1] / metrics[0]:g} at {b} boots: "
                             f"x{high[phase] / low[phase]:.1f}")
        for m in metrics:
            low, high = rows.get((m, boots[0])), rows.get((m, boots[-1]))
            if low and high and low[phase] > 0:
                parts.append(f"boots x{boots[-1] / boots[0]:g} at {m} metrics: "
                             f"x{high[phase] / low[phase]:.1f}")
        lines.append(f"growth of {phase}: " + ("; ".join(parts) or "no pair measured"))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=int, nargs="+", default=[250, 2500])
    parser.add_argument("--boots", type=int, nargs="+", default=[100, 1000])
    args = parser.parse_args(argv)
    rows: dict[tuple[int, int], dict[str, float]] = {}
    print(f"{'metrics':>8} {'boots':>6} {'sessions':>9} {'MiB':>6} {'load s':>8} "
          f"{'judge s':>8} {'save s':>8} {'save, changed s':>15}  (CPU seconds)")
    with tempfile.TemporaryDirectory(prefix="sbcbench-scale-") as tmp:
        for m in args.metrics:
            for b in args.boots:
                row = cell(Path(tmp), m, b)
                if row is None:
                    continue
                rows[m, b] = row
                print(f"{m:>8} {b:>6} {m * b:>9} {row['mib']:>6.0f} {row['load']:>8.2f} "
                      f"{row['judge']:>8.2f} {row['save']:>8.2f} "
                      f"{row['save_changed']:>15.2f}", flush=True)
    if len(args.metrics) > 1 and len(args.boots) > 1:
        print("\n".join(growth(rows, args.metrics, args.boots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
