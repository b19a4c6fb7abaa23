"""Judging and saving at scale: CPU time against metrics and baseline boots (issue 31, item 12).

    python3 benchmarks/scale_judging.py [--metrics 250 2500] [--boots 100 1000] [--repeat 1]

For each cell (M metrics, B baseline boots of 3 runs each) it builds a baseline file of M
entries with B sessions each (the environment a save records about a boot: boot id, kernel
release, CPU model and count; a real one also carries the system checks and clocks, which only
make the file larger), then measures with ``time.process_time`` (CPU time of this process):

- ``load``: reading and validating the file (:func:`judge.baseline.load_baseline`);
- ``judge``: the judging of one candidate session of M results against the loaded baseline
  (:func:`report.compare.compare`: every metric's decision, Holm's later steps, the suite mean);
- ``compare``: the whole command, ``sbcbench compare BASELINE CANDIDATE`` through
  :func:`pytest_sbcbench.cli.main` in a fresh state (nothing parsed before): reading both
  files, the candidate's check against the baseline's sessions, judging, printing;
- ``save``: ``--sbc-save-baseline``'s save of one more session of M results
  (:func:`judge.saving.save_session` as a run calls it: the filter, the quarantine rule, the
  re-read under the lock, the write, the notes on boots and on what the baseline can catch),
  as a run saves: the baseline it loaded is still held, so the re-reads of
  unchanged bytes cost their SHA-256, not a parse;
- ``save, changed``: the same after another run changed the file since (here: a newline
  appended), so the re-read parses it again: about ``load`` + ``save``.

It prints one row per cell and, for each axis, the growth factor of each phase when that axis
grows 10x: linear is about 10, quadratic about 100.  The targets (issue 31): linear growth;
2,500 metrics x 1,000 boots judged in under 5 s and saved in under 1 s of CPU.  That corner
(2.5 million sessions) is a file of 529 MiB, over the 256 MiB the project reads
(``fileio.MAX_INPUT_BYTES``): the cell says so and is skipped (``--beyond-limit``: after
saying so, its JSON is decoded, built and judged in memory all the same, to show what the
single-file format would cost there; a baseline directory of saves reaches that corner:
``benchmarks/scale_saves.py``).  A figure, not a test
(tests/test_baseline_scale.py counts the operations instead).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pytest_sbcbench.cli import main as sbcbench
from pytest_sbcbench.fileio import MAX_INPUT_BYTES
from pytest_sbcbench.jsonload import strict_json
from pytest_sbcbench.judge import baseline as baseline_module
from pytest_sbcbench.judge.baseline import (
    BASELINE_SCHEMA,
    Baseline,
    load_baseline,
    parse_decoded,
)
from pytest_sbcbench.judge.baseline_model import no_gc_pauses
from pytest_sbcbench.judge.saving import save_session
from pytest_sbcbench.judge.stats import summarize
from pytest_sbcbench.model import Identity, Measurement, Result, Verdict
from pytest_sbcbench.report.compare import compare
from pytest_sbcbench.report.results import document

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


def compare_command(path: Path, results: list[Result], env: dict[str, object]) -> float:
    """CPU seconds of ``sbcbench compare`` of a candidate file of ``results`` against the
    baseline at ``path``, nothing parsed before (its output kept, not printed)."""
    candidate_file = path.with_name("candidate.json")
    candidate_file.write_text(json.dumps(document(BOARD, "candidate", env, results)))
    baseline_module._PARSED.clear()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        seconds, code = cpu(lambda: sbcbench(["compare", str(path), str(candidate_file)]))
    assert code in (0, 6), (code, out.getvalue()[-400:])
    return seconds


def cpu(work: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = work()
    return time.process_time() - start, value


def beyond_limit(text: str, path: Path, metrics: int, boots: int) -> str:
    """What reading and judging a baseline over the input limit would cost if it were read:
    its JSON decoded (:func:`jsonload.strict_json`), validated and built
    (:func:`judge.baseline.parse_decoded`) and judged, in memory (no file is written)."""
    raw = text.encode()
    with no_gc_pauses():
        decode_s, data = cpu(lambda: strict_json(raw, path, "baseline"))
    build_s, loaded = cpu(lambda: parse_decoded(raw, data, path, BOARD))
    results = candidate(metrics, boots)
    judge_s, judged = cpu(lambda: compare(loaded, BOARD, environment(boots), results, {}))
    assert len(judged.verdicts) == metrics
    return (f"; read in memory anyway: decoding {decode_s:.2f} s, checking and building "
            f"{build_s:.2f} s, judging {judge_s:.2f} s")


def cell(directory: Path, metrics: int, boots: int, beyond: bool = False
         ) -> dict[str, float] | None:
    """The CPU seconds of each phase; None when the file would exceed the largest input the
    project reads (fileio.MAX_INPUT_BYTES): such a baseline cannot exist (``beyond``: say what
    reading and judging it in memory would cost all the same)."""
    path = directory / f"{BOARD}.json"
    text = json.dumps(baseline_document(metrics, boots))
    if len(text) > MAX_INPUT_BYTES:
        extra = beyond_limit(text, path, metrics, boots) if beyond else ""
        print(f"{metrics:>8} {boots:>6} {metrics * boots:>9}  not measured: the file would be "
              f"{len(text) / 2**20:.0f} MiB, over the {MAX_INPUT_BYTES / 2**20:.0f} MiB any "
              f"baseline may be (fileio.MAX_INPUT_BYTES){extra}", flush=True)
        return None
    path.write_text(text)
    del text
    results = candidate(metrics, boots)
    env = environment(boots)
    compare_s = compare_command(path, results, env)
    baseline_module._PARSED.clear()
    load_s, loaded = cpu(lambda: load_baseline(path, BOARD))
    assert isinstance(loaded, Baseline)
    judge_s, judged = cpu(lambda: compare(loaded, BOARD, env, results, {}))
    assert len(judged.verdicts) == metrics
    save_s, lines = cpu(lambda: save_session(path, BOARD, results, [], "new", env, True))
    assert lines[0].startswith("baseline saved"), lines[:3]
    path.write_bytes(path.read_bytes() + b"\n")  # another run's change: parsed again
    changed_s, _ = cpu(lambda: save_session(path, BOARD, results, [], "newer", env, True))
    return {"load": load_s, "judge": judge_s, "compare": compare_s, "save": save_s,
            "save_changed": changed_s, "mib": path.stat().st_size / 2**20}


PHASES = ("load", "judge", "compare", "save", "save_changed")


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
    parser.add_argument("--beyond-limit", action="store_true",
                        help="for a cell over the input limit, decode, build and judge its "
                             "baseline in memory all the same (minutes, gigabytes)")
    args = parser.parse_args(argv)
    rows: dict[tuple[int, int], dict[str, float]] = {}
    print(f"{'metrics':>8} {'boots':>6} {'sessions':>9} {'MiB':>6} {'load s':>8} "
          f"{'judge s':>8} {'compare s':>9} {'save s':>8} {'save, changed s':>15}  "
          "(CPU seconds)")
    with tempfile.TemporaryDirectory(prefix="sbcbench-scale-") as tmp:
        for m in args.metrics:
            for b in args.boots:
                row = cell(Path(tmp), m, b, args.beyond_limit)
                if row is None:
                    continue
                rows[m, b] = row
                print(f"{m:>8} {b:>6} {m * b:>9} {row['mib']:>6.0f} {row['load']:>8.2f} "
                      f"{row['judge']:>8.2f} {row['compare']:>9.2f} {row['save']:>8.2f} "
                      f"{row['save_changed']:>15.2f}", flush=True)
    if len(args.metrics) > 1 and len(args.boots) > 1:
        print("\n".join(growth(rows, args.metrics, args.boots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
