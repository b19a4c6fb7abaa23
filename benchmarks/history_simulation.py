"""How good is ``sbcbench history changes``?  Simulated boards, beside the anchors' rules.

    python3 benchmarks/history_simulation.py [--boards 200] [--seed 29] [--out FILE.md]

A board is 25 metrics, each label measured on 3 boots of 3 runs; a run is
``1e9 x (1 + step) x (1 + boot offset) x (1 + noise)`` with a boot offset per boot and metric
(SD "drift" 0.5%) and noise per run (SD "CV" 1%).

- **Unchanged**: 100 labels, nothing changes.  A board with any incident is a false alarm
  (target: at most 5% of boards).
- **A 5% step**: one metric 5% slower from a label drawn in 20..79 on.  Judged when the
  history holds the step's first 3 labels (the least the boot test allows) and again 20
  labels later.  Found: an incident naming that metric within 3 labels of the start (target:
  at least 90%); named right: its first bad label is the start (target: at least 80%).  Any
  other incident on the board is counted as a false one.

The anchors (:mod:`history_anchors`) see the same draws: Perfherder each label's boot means
as its values, Chromeperf and Otava one point per label (the mean of its boots).  The table
is Markdown, for docs/history.md."""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from history_anchors import chromeperf, otava_defaults, perfherder

from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.judge.changes import board_steps, incidents
from pytest_sbcbench.judge.history_read import (
    BoardHistory,
    LabelPoint,
    MetricHistory,
)

METRICS, BOOTS, RUNS = 25, 3, 3
CV, DRIFT, STEP = 0.01, 0.005, -0.05
LABELS, EARLIEST, LATEST, LATER = 100, 20, 80, 20

Draws = list[list[list[list[float]]]]  # metric -> label -> boot -> runs


def draw(rng: random.Random, labels: int, start: int | None) -> Draws:
    """Samples of a board; metric 0 steps by STEP from label ``start`` (None: no step)."""
    out: Draws = []
    for m in range(METRICS):
        series = []
        for j in range(labels):
            shift = STEP if m == 0 and start is not None and j >= start else 0.0
            series.append([[1e9 * (1 + shift) * (1 + rng.gauss(0, DRIFT))
                            * (1 + rng.gauss(0, CV)) for _ in range(RUNS)]
                           for _ in range(BOOTS)])
        out.append(series)
    return out


def board(draws: Draws, upto: int) -> BoardHistory:
    names = tuple(f"L{j:03d}" for j in range(upto))
    series = tuple(
        MetricHistory("sim", f"m{m:02d}", f"m{m:02d}", "B/s", "higher", tuple(
            LabelPoint(names[j], tuple(BootSession(tuple(runs), f"{names[j]}-{b}")
                                       for b, runs in enumerate(labels[j])), (), ())
            for j in range(upto)))
        for m, labels in enumerate(draws))
    return BoardHistory("sim", names, series)


Found = dict[int, list[int]]  # metric -> first bad indices reported


def ours(draws: Draws, upto: int) -> Found:
    history = board(draws, upto)
    found: Found = {}
    for incident in incidents("sim", board_steps(history)):
        for step in incident.steps:
            found.setdefault(int(step.metric[1:]), []).append(history.labels.index(
                incident.first_bad))
    return found


def _boot_means(draws: Draws, m: int, upto: int) -> list[list[float]]:
    return [[statistics.fmean(runs) for runs in label] for label in draws[m][:upto]]


def _levels(draws: Draws, m: int, upto: int) -> list[float]:
    return [statistics.fmean(b) for b in _boot_means(draws, m, upto)]


def anchor(rule: Callable[[Draws, int, int], list[int]]) -> Callable[[Draws, int], Found]:
    def run(draws: Draws, upto: int) -> Found:
        found = {m: rule(draws, m, upto) for m in range(METRICS)}
        return {m: f for m, f in found.items() if f}
    return run


METHODS: dict[str, Callable[[Draws, int], Found]] = {
    "sbcbench (Otava proposes, boot t + Holm confirms)": ours,
    "Perfherder (t > 7, 12/24 back, 12 fore, 2% floor)": anchor(
        lambda d, m, u: perfherder(_boot_means(d, m, u))),
    "Chromeperf (>= 6 points a side, 1%, 2.5 sigma)": anchor(
        lambda d, m, u: chromeperf(_levels(d, m, u))),
    "Otava defaults (window 50, p <= 0.001)": anchor(
        lambda d, m, u: otava_defaults(_levels(d, m, u))),
}


@dataclass
class Tally:
    false_boards: int = 0
    found_early: int = 0
    named_early: int = 0
    found_late: int = 0
    named_late: int = 0
    other_early: int = 0
    seconds: float = 0.0


def judge_step(found: Found, start: int) -> tuple[bool, bool, bool]:
    """Found within 3 labels, named right, and any incident on another metric."""
    hits = [i for i in found.get(0, []) if abs(i - start) <= 3]
    return bool(hits), start in hits, any(m != 0 for m in found)


def simulate(boards: int, seed: int) -> dict[str, Tally]:
    tallies = {name: Tally() for name in METHODS}
    rng = random.Random(seed)
    for _ in range(boards):
        null = draw(rng, LABELS, None)
        start = rng.randrange(EARLIEST, LATEST)
        stepped = draw(rng, start + 3 + LATER, start)
        for name, method in METHODS.items():
            t, began = tallies[name], time.perf_counter()
            t.false_boards += bool(method(null, LABELS))
            early, named, other = judge_step(method(stepped, start + 3), start)
            late, named_late, _ = judge_step(method(stepped, start + 3 + LATER), start)
            t.found_early += early
            t.named_early += named
            t.other_early += other
            t.found_late += late
            t.named_late += named_late
            t.seconds += time.perf_counter() - began
    return tallies


def _pct(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * low:.1f}..{100 * high:.1f})"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def table(tallies: dict[str, Tally], boards: int, seed: int) -> str:
    lines = [f"{boards} boards a cell, seed {seed}; 25 metrics, 3 boots of 3 runs a label, "
             f"CV {CV:.0%}, drift {DRIFT:.1%}; 95% Wilson intervals in brackets.", "",
             "| method | boards with a false incident, 100 unchanged labels | 5% step found "
             "by its 3rd label | first bad label right, by its 3rd label | other incident, "
             "by its 3rd label | found 20 labels later | right 20 labels later |",
             "|---|---|---|---|---|---|---|"]
    for name, t in tallies.items():
        lines.append(f"| {name} | {_pct(t.false_boards, boards)} | "
                     f"{_pct(t.found_early, boards)} | {_pct(t.named_early, boards)} | "
                     f"{_pct(t.other_early, boards)} | {_pct(t.found_late, boards)} | "
                     f"{_pct(t.named_late, boards)} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = parser.parse_args(argv)
    tallies = simulate(args.boards, args.seed)
    text = table(tallies, args.boards, args.seed)
    print(text)
    for name, t in tallies.items():
        print(f"{name}: {t.seconds:.1f} s", file=sys.stderr)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
