"""History reads at scale: a history of 100,000 sessions, and how long its reads take.

    python3 benchmarks/history_scale.py [--sessions 100000] [--boards 10] [--metrics 5]
                                        [--labels 200] [--keep DIR]

Writes a history through the store's own writer (schema 2, one transaction for the lot, as
``append`` would write it one session at a time): ``--boards`` boards, each with its labels,
three boots a label and two sessions a boot, ``--metrics`` results a session.  Then times
(CPU seconds, the median of 3) the reads a run or a person makes:
- ``earlier_boots``: one candidate label's earlier boots (what every gate run reads first);
- ``summary``: ``sbcbench history``'s counts per board, role and label;
- ``label_history(board, metric)``: one metric of one board across its labels in order (the
  read of ``history show`` / ``changes`` / ``publish``).
Before the indexes of schema 2 the first was a full scan of the results (issue 29: 6,000 boots
of one label took 8.8 s to look up).  A figure, not a test: tests/test_history.py checks the
query plans use the indexes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pytest_sbcbench.judge import history
from pytest_sbcbench.judge.history_db import BOOTED_COLUMNS, writing


def build(path: Path, sessions: int, boards: int, metrics: int, labels: int) -> None:
    env = json.dumps({"kernel": "6.12.0", "boot_id": "x"})
    columns = ("created, board, role, label, kernel_release, boot_id, interrupted, environment, "
               + ", ".join(BOOTED_COLUMNS))
    marks = ", ".join("?" * (8 + len(BOOTED_COLUMNS)))
    with writing(path) as db:
        for i in range(sessions):
            board, n = f"board{i % boards}", i // boards
            label = n // 6 % labels
            row = (f"2026-12-01T{i:09d}", board, "candidate", f"L{label:04d}", f"6.{label}.0",
                   f"{board}-L{label}-boot{n // 2 % 3}-{n // (6 * labels)}", 0, env,
                   None, None, None, "root=/dev/vda", "0-3", None, None)
            sid = db.execute(f"INSERT INTO sessions ({columns}) VALUES ({marks})",
                             row).lastrowid
            db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(sid, f"t::m{m}", f"m{m}", "B/s", '{"tool": "x"}',
                             "[1.0, 1.01, 0.99]", "{}", "pass", "ok") for m in range(metrics)])


def cpu_seconds(read: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        start = time.process_time()
        read()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--metrics", type=int, default=5)
    parser.add_argument("--labels", type=int, default=200)
    parser.add_argument("--keep", type=Path, help="write the history into DIR and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = history.history_path(folder)
        start = time.monotonic()
        build(path, args.sessions, args.boards, args.metrics, args.labels)
        print(f"history of {args.sessions:,} sessions x {args.metrics} results written in "
              f"{time.monotonic() - start:.1f} s ({path.stat().st_size / 1e6:.0f} MB)")
        reads = {
            "earlier_boots (one label)": lambda: history.earlier_boots(path, "board0", "L0007"),
            "summary (sbcbench history)": lambda: history.summary(path),
            "label_history (one board, one metric)":
                lambda: history.label_history(path, board="board0", metric="m0"),
        }
        for name, read in reads.items():
            print(f"{name:40} {cpu_seconds(read):8.3f} s CPU")


if __name__ == "__main__":
    main()
