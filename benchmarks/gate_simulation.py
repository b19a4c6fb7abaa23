"""How good are the verdicts?  The shipped candidate-boots gate simulated over whole suites,
beside other tools' rules, and replayed on real samples of this VM.

    python3 benchmarks/gate_simulation.py [--cells bound|detect|protocols|few|auto|all]
                                          [--trials 500] [--seed 2026]
    python3 benchmarks/gate_simulation.py --replay       # real samples of this VM

(``--boots`` is accepted for ``--cells``.)  The default mode drives the procedure the plugin
and ``sbcbench compare`` run (:mod:`gate_boots`): each trial is a suite of 25 metrics, lower
is better, with k baseline boots of 3 runs and c candidate boots of 3 runs, the last one looked
at after 3 runs and after each further run up to 6 while undecided
(:func:`pytest_sbcbench.judge.boot_decide.decide_sides` at Holm's first step, 0.04 / 25), then
the end of the run (:func:`pytest_sbcbench.judge.family.close_family`: Holm's later steps and
the suite-mean test at 1%).  A run is ``100 x (1 + shift) x (1 + boot offset) x (1 + noise)``,
each boot an offset per metric (SD "drift"; "shared": one draw per boot for every metric), each
run its noise (SD "CV").

- **Bound cells** (``--cells bound``): k = 2, 3, 5, 10 baseline boots against c = 1 and 3
  candidate boots, with drifts that differ between metrics: one metric drifting 1% among 24
  that do not; 5 at 1% among 20 at 0.25%; CV mixed 0.3/1/3% at drift 1%; and drift 0.5% shared
  by every metric.  The share of unchanged suites that fail (any metric, or the suite mean) must
  stay at most 5%.
- **Detection cells** (``--cells detect``): 10 baseline boots against 3 candidate boots, each
  drop on the same draws (common random numbers), and the anchors' rules beside them, each
  seeing the baseline boots and the last candidate boot's runs as a run of one new boot:

  - pytest-benchmark ``--benchmark-compare-fail=mean:5%``: the mean 5% worse than the latest
    baseline session's;
  - pyperf ``compare_to``: its two-sample t-test at 95% (``pyperf._utils.is_significant``) and
    slower, against the latest session (its t-score needs equal counts);
  - asv: slower by a factor over 1.1 and non-overlapping 99% intervals (Student-t standing in
    for its Laplace-posterior interval; its Mann-Whitney test cannot reach p < 0.002 with 9
    vs 3);
  - the Phoronix Test Suite: a mean move over 2% the bad way, after its dynamic run count (runs
    added while the relative standard deviation exceeds 3.5%, up to 2x the 3 runs);
  - LKP-tests (the kernel test robot): ranges that do not overlap, at least 3 samples a side;
  - Bencher's t-test threshold: this run's mean beyond the baseline samples' mean plus
    t(0.99, n - 1) standard deviations (it judges one new value against history).

- **Protocol cells** (``--cells protocols``, :mod:`gate_protocols`, issue 28): the same mixes
  and k, plus heavy-tailed (Student-t, 3 df) and one-outlier-boot cells, under every protocol a
  label's boots come by: ``--sbc-boots 1`` and ``3`` (one look, the whole budget), 1 and 3
  boots recorded by hand or judged by ``sbcbench compare`` (every boot a look at 1/6 of the
  budget), and ``--sbc-boots auto`` (the same looks, booting on until decided, at most 6).
  Each: unchanged suites failing (<= 5%), lone 3% drops caught (the rule's realized power),
  unchanged metrics judged ``pass`` (where the power is below 80%, at most 5%).
- **Few boots** (``--cells few``): lone 3% (CV 1%, drift 0.5%, 10 baseline boots) at 1 and 2
  candidate boots (``--sbc-boots c``) beside a plain two-sample t on boot means.
- **Auto detection** (``--cells auto``): ``--sbc-boots auto`` on the detection cells, each drop
  caught and the candidate boots it took.

``--replay``: the four openssl metrics recorded on the development VM
(``tests/data/this_machine/gate-replay_*``) through the same procedure
(:func:`pytest_sbcbench.judge.boot_decide.decide_boots`, then ``close_family``).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import gate_looks
import gate_protocols
from gate_boots import MAX_RUNS, N_METRICS, AnchorRule, boots_table, detect_cells
from pyperf._utils import is_significant

from pytest_sbcbench.judge.boot_decide import BootDecision, BootPlan, decide_boots
from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.judge.family import (
    FamilyVerdict,
    close_family,
    per_test_alpha,
    suite_mean_test,
    suite_metric,
)
from pytest_sbcbench.judge.tdist import t_ppf
from pytest_sbcbench.measure.openssl_parse import parse_speed

Baseline = Sequence[Sequence[float]]
RUNS = 3  # what the anchors' rules see of the last candidate boot (Phoronix: up to 2x)


def pytest_benchmark(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    return statistics.fmean(cur[:RUNS]) > 1.05 * statistics.fmean(base[-1]), RUNS


def pyperf_rule(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    latest, now = list(base[-1]), list(cur[:RUNS])
    significant, _ = is_significant(latest, now)
    return bool(significant) and statistics.fmean(now) > statistics.fmean(latest), RUNS


def _ci99(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = t_ppf(0.995, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def asv_rule(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    flat, now = [v for s in base for v in s], cur[:RUNS]
    if statistics.median(now) <= 1.1 * statistics.median(flat):
        return False, RUNS
    low_b, high_b = _ci99(flat)
    low_c, high_c = _ci99(now)
    return high_b < low_c or high_c < low_b, RUNS


def phoronix(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    n = RUNS
    while n < 2 * RUNS and statistics.stdev(cur[:n]) / statistics.fmean(cur[:n]) > 0.035:
        n += 1
    flat = [v for s in base for v in s]
    return statistics.fmean(cur[:n]) > 1.02 * statistics.fmean(flat), n


def lkp(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    return min(cur[:RUNS]) > max(v for s in base for v in s), RUNS


def bencher(base: Baseline, cur: Sequence[float]) -> tuple[bool, int]:
    flat = [v for s in base for v in s]
    limit = statistics.fmean(flat) + t_ppf(0.99, len(flat) - 1) * statistics.stdev(flat)
    return statistics.fmean(cur[:RUNS]) > limit, RUNS


ANCHORS: dict[str, AnchorRule] = {
    "pytest-benchmark mean:5%": pytest_benchmark,
    "pyperf compare_to (t-test 95%)": pyperf_rule,
    "asv (factor 1.1 + 99% intervals)": asv_rule,
    "Phoronix 2% + dynamic runs": phoronix,
    "LKP-tests range separation": lkp,
    "Bencher t-test (99%)": bencher,
}


def tables(which: str, trials: int, seed: int) -> list[str]:
    """The default mode's output: the cells' table, and the anchors beside the detection cells;
    then the protocols' table, the few-boots table and ``--sbc-boots auto`` on the detection
    cells."""
    out = [f"{trials} suites of {N_METRICS} metrics per cell, seed {seed}", ""]
    if which in ("looks", "all"):
        out += ["What the gate decides at 1, 2, 3 and 6 candidate boots (each cell: unchanged "
                "suites failed so far / unchanged metrics judged pass / metrics truly 3% "
                "slower judged pass so far / lone 3% drop caught so far):", "",
                *gate_looks.looks_tables(trials, seed), ""]
    if which in ("bound", "detect", "all"):
        out += boots_table(which, trials, seed, ANCHORS)
    if which in ("protocols", "all"):
        out += ["", "A label's boots under each protocol:", "",
                *gate_protocols.protocols_table(trials, seed)]
    if which in ("few", "all"):
        out += ["", "One and two candidate boots against a plain t on boot means:", "",
                *gate_protocols.few_boots_table(trials, seed)]
    if which in ("auto", "all"):
        out += ["", "--sbc-boots auto (budget 6) on the detection cells:", "",
                *gate_protocols.auto_detect_table(trials, seed, detect_cells())]
    return out


REPLAY_DIR = Path(__file__).parent.parent / "tests" / "data" / "this_machine"
REPLAY_GLOB = "gate-replay_openssl-3.0.19_mr_evp-*_bytes16384.txt"
MARKER = re.compile(r"^# group (\d+) round (\d+) (\S+)$")


def load_replay(path: Path) -> tuple[str, dict[int, list[float]]]:
    """(algorithm, group -> bytes/s per run) from a recorded file: each run's unedited
    ``openssl speed -mr`` stdout after a ``# group G round R HH:MM:SS`` line."""
    algorithm = path.name.split("_evp-")[1].split("_bytes")[0]
    groups: dict[int, list[float]] = {}
    chunks: list[tuple[int, list[str]]] = []
    for line in path.read_text().splitlines():
        found = MARKER.match(line)
        if found:
            chunks.append((int(found.group(1)), []))
        elif chunks:
            chunks[-1][1].append(line)
        else:
            raise ValueError(f"{path}: output before the first marker: {line!r}")
    for group, lines in chunks:
        # each captured line with its newline: the tool's output, not a cut-off one
        value = parse_speed("".join(f"{line}\n" for line in lines),
                            "3.0.19").bytes_per_second(algorithm, 16384)
        if value is None:
            raise ValueError(f"{path}: no {algorithm} figure in group {group}")
        groups.setdefault(group, []).append(value)
    return algorithm, groups


@dataclass(frozen=True)
class Replayed:
    """One recorded metric replayed: its groups, its final decision and the gate's end."""

    algorithm: str
    groups: dict[int, list[float]]
    decision: BootDecision
    family: FamilyVerdict  # the whole replayed suite's, the same for every metric


def replay(shift: float = 0.0, baseline_groups: Sequence[int] = (1, 2, 3), current: int = 4
           ) -> list[Replayed]:
    """The recorded groups through the shipped procedure: baseline groups as baseline boots,
    the current group's runs (scaled by 1 + shift) as the one candidate boot, looked at after 3
    runs and each further run in the order they were measured, at Holm's first step over the
    recorded metrics; then Holm's later steps and the suite-mean test."""
    data = [load_replay(p) for p in sorted(REPLAY_DIR.glob(REPLAY_GLOB))]
    if not data:
        raise FileNotFoundError(f"no {REPLAY_GLOB} in {REPLAY_DIR}")
    plan = BootPlan(RUNS, MAX_RUNS, 1, alpha=per_test_alpha(len(data)))
    judged = []
    for algorithm, groups in data:
        base = [BootSession(tuple(groups[g]), f"group{g}") for g in baseline_groups]
        stream = [v * (1.0 + shift) for v in groups[current]]
        for n in range(plan.min_runs, plan.max_runs + 1):
            cand = [BootSession(tuple(stream[:n]), f"group{current}")]
            decision = decide_boots(base, cand, "higher", plan)
            if decision.status != "continue":
                break
        judged.append((algorithm, groups, decision, suite_metric(algorithm, base, cand,
                                                                   "higher")))
    looks = len(plan.regression_looks)  # each p-value as its test counted it (closing.py)
    family = close_family(
        [(a, _counted(d, looks)) for a, _, d, _ in judged],
        suite_mean_test([s for *_, s in judged]))
    return [Replayed(a, g, d, family) for a, g, d, _ in judged]


def _counted(d: BootDecision, looks: int) -> BootDecision:
    return dataclasses.replace(d, p_value=min(1.0, d.p_value * looks))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _cell(d: BootDecision) -> str:
    return (f"{d.status} ({d.change_pct:+.1f}%, 95% of drops >= {d.catch95_pct:.1f}% caught, "
            f"{d.samples_used} runs)")


def _gate(family: FamilyVerdict) -> str:
    added = f", {len(family.added)} by Holm's later steps" if family.added else ""
    head = f"{'fails' if family.failed else 'passes'}: {len(family.regressions)} regression"
    head += "" if len(family.regressions) == 1 else "s"
    suite = family.suite
    if suite.status == "not-run":
        return f"{head}{added}; suite mean not run (too few boots)"
    throughput = 100.0 * (1.0 / (1.0 + suite.change_pct / 100.0) - 1.0)  # all higher-better
    return (f"{head}{added}; suite mean {throughput:+.1f}%, p = {suite.p_value:.2g}: "
            f"{suite.status}")


def replay_table() -> list[str]:
    """Real samples from this host replayed: unchanged, 10% and 90% slower, against one group;
    the last row is the gate's end for the four metrics together."""
    lines = ["| metric | CV within groups | SD of group means | unchanged (3 groups) | "
             "10% slower | 90% slower (AES-NI masked) | unchanged (1 group) |",
             "|---|---|---|---|---|---|---|"]
    runs = (replay(), replay(-0.10), replay(-0.90), replay(baseline_groups=(1,)))
    for same, *others in zip(*runs, strict=True):
        cvs = [statistics.stdev(v) / statistics.fmean(v) for v in same.groups.values()]
        means = [statistics.fmean(v) for v in same.groups.values()]
        lines.append(
            f"| {same.algorithm} | {pct(min(cvs))}-{pct(max(cvs))} | "
            f"{pct(statistics.stdev(means) / statistics.fmean(means))} | "
            + " | ".join(_cell(r.decision) for r in (same, *others)) + " |")
    lines.append(f"| gate (Holm over {len(runs[0])} metrics + suite mean) | | | "
                 + " | ".join(_gate(r[0].family) for r in runs) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="the candidate-boots gate simulated over "
                                                 "whole suites, beside other tools' rules")
    parser.add_argument("--cells", "--boots", dest="cells", default="all",
                        choices=("looks", "bound", "detect", "protocols", "few", "auto", "all"),
                        help="the suite-bound cells, the detection cells, the protocols' "
                             "cells, few boots, auto detection, or all (default)")
    parser.add_argument("--trials", type=int, default=500, help="suites per cell")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--replay", action="store_true",
                        help="only replay the samples recorded on the development VM")
    args = parser.parse_args()
    if args.replay:
        print("\n".join(replay_table()))
        return
    print("\n".join(tables(args.cells, args.trials, args.seed)))


if __name__ == "__main__":
    main()
