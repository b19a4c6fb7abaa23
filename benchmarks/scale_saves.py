"""A baseline directory of saves at scale: CPU time against metrics and boots (issue 31, item 12).

    python3 benchmarks/scale_saves.py [--metrics 250 2500] [--boots 100 1000] [--keep DIR]

For each cell (M metrics, B boots) it writes a directory ``<board>/`` of B saves, each the file
a run's ``--sbc-save-baseline`` writes there (M sessions of 3 runs, one boot), with its own
summary cache (``SBCBENCH_SUMMARY_CACHE`` in a temporary directory), then measures with
``time.process_time`` (CPU time of this process):

- ``summarize``: the first read, which parses every save and writes the cache (once: a save a
  run writes is summarized as it is written, so this is the cost of a lost cache);
Each of the last three runs in a new Python process, as a run or a command does:

- ``compare``: the whole ``sbcbench compare DIR CANDIDATE`` through
  :func:`pytest_sbcbench.cli.main`, nothing known in the process (its memory of hashes and
  baselines cleared): the saves listed and stat'ed, the cache read, the entries built from
  it, one candidate boot of M results judged (every decision, Holm's steps, the suite mean),
  printed;
- ``save``: ``--sbc-save-baseline`` of one more boot through
  :func:`judge.saving.save_session` as a run calls it (its baseline loaded and judged first,
  as a run's is): the filter, the quarantine rule, the re-read under the lock (a stat a save),
  the new save written, the cache rewritten, the notes;
- ``save, changed``: the same after another process saved a boot since (its new save is
  hashed, parsed and summarized, and the entries built again).

The targets (issue 31): linear growth; 2,500 metrics x 1,000 boots compared in under 5 s and
saved in under 1 s of CPU.  A figure, not a test (tests/test_baseline_saves.py counts the work).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from scale_judging import BOARD, candidate, environment

from pytest_sbcbench.cli import main as sbcbench
from pytest_sbcbench.judge import baseline as baseline_module
from pytest_sbcbench.judge import baseline_saves
from pytest_sbcbench.judge.baseline import baseline_text, with_session
from pytest_sbcbench.judge.baseline_store import load_any
from pytest_sbcbench.judge.saving import save_session
from pytest_sbcbench.report.compare import compare
from pytest_sbcbench.report.results import document

T = TypeVar("T")


def cpu(work: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = work()
    return time.process_time() - start, value


def forget() -> None:
    """Nothing known in this process: hashes, built baselines, parsed files."""
    baseline_saves._DIGESTS.clear()
    baseline_saves._BUILT.clear()
    baseline_module._PARSED.clear()


def write_saves(folder: Path, metrics: int, boots: int) -> int:
    """``boots`` saves of ``metrics`` results each, as runs write them; their bytes."""
    folder.mkdir(parents=True)
    size = 0
    for b in range(boots):
        save = with_session(None, BOARD, candidate(metrics, b), f"boot {b}", environment(b))
        raw = baseline_text(save).encode()
        (folder / f"{b + 1:06d}.json").write_bytes(raw)
        size += len(raw)
    return size


def compare_command(folder: Path, metrics: int, boots: int) -> float:
    candidate_file = folder.parent / "candidate.json"
    env = environment(boots + 1)
    candidate_file.write_text(json.dumps(document(BOARD, "candidate", env,
                                                  candidate(metrics, boots + 1))))
    forget()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        seconds, code = cpu(lambda: sbcbench(["compare", str(folder), str(candidate_file)]))
    assert code in (0, 6), (code, out.getvalue()[-400:])
    return seconds


def run_save(folder: Path, metrics: int, boot: int) -> float:
    """A run's save of a new boot: its baseline loaded and judged first, then saved."""
    env = environment(boot)
    loaded = load_any(folder, BOARD)
    assert loaded is not None
    compare(loaded, BOARD, env, candidate(metrics, boot), {})
    seconds, lines = cpu(lambda: save_session(folder, BOARD, candidate(metrics, boot), [],
                                              f"boot {boot}", env, with_notes=True))
    assert lines and lines[0].startswith("baseline saved"), lines
    return seconds


def another_save(folder: Path, metrics: int, boot: int) -> None:
    """Another process's save: a new file beside the ones this process knows."""
    save = with_session(None, BOARD, candidate(metrics, boot), f"boot {boot}", environment(boot))
    last = max(int(p.name[:6]) for p in folder.glob("*.json"))
    (folder / f"{last + 1:06d}.json").write_bytes(baseline_text(save).encode())


def phase(name: str, folder: Path, metrics: int, boots: int) -> float:
    """One measured phase of a cell, in this process (see the module's docstring)."""
    if name == "compare":
        return compare_command(folder, metrics, boots)
    if name == "save":
        return run_save(folder, metrics, boots + 2)
    loaded = load_any(folder, BOARD)  # held, as a run holds its baseline
    assert loaded is not None
    compare(loaded, BOARD, environment(boots + 3), candidate(metrics, boots + 3), {})
    another_save(folder, metrics, boots + 4)
    return cpu(lambda: save_session(folder, BOARD, candidate(metrics, boots + 3), [],
                                    f"boot {boots + 3}", environment(boots + 3),
                                    with_notes=True))[0]


def in_child(name: str, folder: Path, metrics: int, boots: int) -> float:
    """:func:`phase` in a new Python process, as a run or a ``sbcbench`` command starts (not
    in this one, which has just written and parsed every save)."""
    out = subprocess.run([sys.executable, __file__, "--phase", name, "--dir", str(folder),
                          "--metrics", str(metrics), "--boots", str(boots)],
                         check=True, capture_output=True, text=True, env=os.environ)
    return float(out.stdout.split()[-1])


def cell(root: Path, metrics: int, boots: int) -> dict[str, float]:
    folder = root / BOARD
    os.environ["SBCBENCH_SUMMARY_CACHE"] = str(root / "cache")
    size = write_saves(folder, metrics, boots)
    forget()
    summarize, _ = cpu(lambda: load_any(folder, BOARD))
    return {"MiB": size / 2**20, "summarize": summarize,
            **{name: in_child(name, folder, metrics, boots)
               for name in ("compare", "save", "save, changed")}}


COLUMNS = ("MiB", "summarize", "compare", "save", "save, changed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", type=int, nargs="+", default=[250, 2500])
    parser.add_argument("--boots", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--keep", type=Path, default=None,
                        help="build the cells under DIR and leave them (default: a temporary "
                             "directory, removed)")
    parser.add_argument("--phase", choices=("compare", "save", "save, changed"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        print(phase(args.phase, args.dir, args.metrics[0], args.boots[0]))
        return 0
    base = Path(tempfile.mkdtemp(prefix="sbcbench-saves-", dir=args.keep))
    rows: dict[tuple[int, int], dict[str, float]] = {}
    print("| metrics x boots | " + " | ".join(COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    try:
        for m in args.metrics:
            for b in args.boots:
                rows[m, b] = cell(base / f"{m}x{b}", m, b)
                shown = " | ".join(f"{rows[m, b][c]:.2f}" + ("" if c == "MiB" else " s")
                                   for c in COLUMNS)
                print(f"| {m:,} x {b:,} | {shown} |", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    for axis, pairs in (("metrics", [((a, b), (c, b)) for a in args.metrics
                                     for c in args.metrics if c == 10 * a for b in args.boots]),
                        ("boots", [((m, a), (m, c)) for m in args.metrics for a in args.boots
                                   for c in args.boots if c == 10 * a])):
        for small, large in pairs:
            factors = ", ".join(f"{c} x{rows[large][c] / rows[small][c]:.1f}"
                                for c in COLUMNS[1:] if rows[small][c] > 0)
            print(f"{axis} x10 from {small[0]} x {small[1]}: {factors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
