"""The candidate-boots gate (issue 22) driven over heterogeneous suites: the cells of
``benchmarks/gate_simulation.py`` (its default mode) and the procedure as the plugin runs it.

Each trial is a suite of 25 metrics (lower is better).  The baseline has k boots of 3 runs;
the candidate c boots: the first c - 1 of 3 runs (the plan's minimum; those looks are
``pending``), the last one run as the plugin's loop runs it (look after 3 runs and after each
further run while the verdict says ``continue``, up to 6).  A run is
``100 x (1 + shift) x (1 + boot offset) x (1 + noise)``: each boot draws an offset per metric
(SD = that metric's drift; "shared": one draw per boot scaled to every metric, so every metric
moves together) and each run its noise (SD = that metric's CV).  Every metric is judged by
:func:`pytest_sbcbench.judge.boot_decide.decide_sides` at Holm's first step (0.04 / 25), then
:func:`pytest_sbcbench.judge.family.close_family` runs Holm's later steps and the suite-mean
test (1%).  The drops of a cell are applied to the same draws (common random numbers); a lone
drop re-judges only the dropped metric.

Reported per cell: the share of unchanged suites that fail (any metric, or the suite mean)
with its 95% interval, unchanged metrics passing at a look whose power for delta (3%) was
below 80% (the true power, from the simulated variances), the median metric's "95% of drops
>= x% are caught", and the detection of each drop of the cell (the dropped metric a regression;
for a whole-suite drop, the gate failing).
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pytest_sbcbench.judge.boot_decide import BootDecision, BootPlan, decide_sides
from pytest_sbcbench.judge.boot_tails import tail_weight
from pytest_sbcbench.judge.boot_test import BootSession, BootSide, reduce_side
from pytest_sbcbench.judge.family import (
    FamilyVerdict,
    SuiteMetric,
    close_family,
    per_test_alpha,
    suite_mean_test,
)

N_METRICS = 25
RUNS = 3
MAX_RUNS = 6


@dataclass(frozen=True)
class BootCell:
    label: str
    k: int
    c: int
    cv: tuple[float, ...]  # cycled over the metrics
    drift: tuple[float, ...]
    shared: bool = False
    drops: tuple[tuple[str, float], ...] = ()  # ("lone" | "suite", shift), with its target
    targets: tuple[float, ...] = ()  # detection target per drop
    metrics: int = N_METRICS
    offsets: str = "normal"  # "normal", "t3" (Student-t, 3 df, same SD) or "outlier" (below)
    runs: int = RUNS  # a boot's runs, both sides (a look's budget: twice as many)

    def cv_of(self, j: int) -> float:
        return self.cv[j % len(self.cv)]

    def drift_of(self, j: int) -> float:
        return self.drift[j % len(self.drift)]


ONE_OF_25 = (0.01,) + (0.0,) * 24  # one metric drifting 1% among 24 that do not
FIVE_OF_25 = (0.01, 0.0025, 0.0025, 0.0025, 0.0025)  # 5 at 1%, 20 at 0.25%
CV_MIX = (0.003, 0.01, 0.03)


def bound_cells() -> list[BootCell]:
    """The suite bound for every k and c of the issue, over the heterogeneous mixes."""
    cells = []
    for k in (2, 3, 5, 10):
        for c in (1, 3):
            cells += [BootCell("1 at 1% drift, 24 at 0; CV 1%", k, c, (0.01,), ONE_OF_25),
                      BootCell("5 at 1%, 20 at 0.25% drift; CV 1%", k, c, (0.01,), FIVE_OF_25),
                      BootCell("CV 0.3/1/3%, drift 1%", k, c, CV_MIX, (0.01,)),
                      BootCell("drift 0.5% shared by all; CV 1%", k, c, (0.01,), (0.005,),
                               True)]
    return cells


def detect_cells() -> list[BootCell]:
    """The detection targets: 10 baseline boots x 3 runs, 3 candidate boots x 3 runs."""
    return [
        BootCell("lone 3% drop; CV 1%, drift 0.5%", 10, 3, (0.01,), (0.005,),
                 drops=(("lone", 0.03),), targets=(0.95,)),
        BootCell("lone 3% drop; CV 0.3%, drift 0.5%", 10, 3, (0.003,), (0.005,),
                 drops=(("lone", 0.03),), targets=(0.95,)),
        BootCell("lone 5% drop; CV 1%, drift 1%", 10, 3, (0.01,), (0.01,),
                 drops=(("lone", 0.05),), targets=(0.95,)),
        BootCell("lone 10% drop; CV 3%, drift 1%", 10, 3, (0.03,), (0.01,),
                 drops=(("lone", 0.10),), targets=(0.99,)),
        BootCell("suite 3% drop; CV 1%, drift 0.5%", 10, 3, (0.01,), (0.005,),
                 drops=(("suite", 0.03),), targets=(0.99,)),
        BootCell("suite 3% drop; CV 1%, drift 0.5% shared", 10, 3, (0.01,), (0.005,), True,
                 drops=(("suite", 0.03),), targets=(0.99,)),
    ]


Draw = tuple[list[BootSession], list[tuple[float, ...]]]  # baseline sessions, candidate boots


OUTLIER_SDS = 4.0  # "outlier": one baseline boot of the suite this many drift SDs fast


def offset(rng: random.Random, kind: str) -> float:
    """A boot's offset in drift SDs: normal, or Student-t with 3 df scaled to unit SD."""
    z = rng.gauss(0.0, 1.0)
    if kind != "t3":
        return z
    chi2 = sum(rng.gauss(0.0, 1.0) ** 2 for _ in range(3))
    return z / math.sqrt(chi2 / 3.0) / math.sqrt(3.0)


def draw_suite(rng: random.Random, cell: BootCell, candidate_boots: int | None = None
               ) -> list[Draw]:
    """Baseline sessions and candidate boots per metric: the cell's c, the last of MAX_RUNS
    runs and the others of RUNS; or ``candidate_boots``, each of MAX_RUNS (each a look, which
    takes a prefix).  Under "outlier" one baseline
    boot of the suite (drawn at random) is OUTLIER_SDS drift SDs faster on every metric, so
    the candidate looks slower."""
    c = cell.c if candidate_boots is None else candidate_boots
    kind = cell.offsets
    shared = [offset(rng, kind) for _ in range(cell.k + c)]
    bad = rng.randrange(cell.k) if kind == "outlier" else -1
    out = []
    for j in range(cell.metrics):
        cv, drift = cell.cv_of(j), cell.drift_of(j)
        boots = []
        for b in range(cell.k + c):
            z = shared[b] if cell.shared else offset(rng, kind)
            z -= OUTLIER_SDS if b == bad else 0.0
            last = cell.k + c - 1 if candidate_boots is None else cell.k  # the looks' boots
            n = cell.runs if b < last else 2 * cell.runs
            boots.append(tuple(100.0 * (1.0 + drift * z) * (1.0 + rng.gauss(0.0, cv))
                               for _ in range(n)))
        out.append(([BootSession(boots[b], f"b{b}") for b in range(cell.k)], boots[cell.k:]))
    return out


@dataclass(frozen=True)
class Judged:
    decision: BootDecision
    candidate: BootSide  # as far as the loop measured


def judge_metric(base: BootSide, cand_boots: Sequence[tuple[float, ...]], shift: float,
                 plan: BootPlan) -> Judged:
    """The run loop of the last candidate boot, the earlier boots at the minimum."""
    scale = 1.0 + shift
    boots = [tuple(v * scale for v in b) for b in cand_boots]
    earlier = [BootSession(b[:RUNS], f"c{i}") for i, b in enumerate(boots[:-1])]
    for n in range(RUNS, MAX_RUNS + 1):
        sessions = (*earlier, BootSession(boots[-1][:n], f"c{len(earlier)}"))
        side = reduce_side(sessions)
        d = decide_sides(base, side, n, "lower", plan, explain=False)
        if d.status != "continue":
            return Judged(d, side)
    raise AssertionError("the last look is always final")


AnchorRule = Callable[[Sequence[Sequence[float]], Sequence[float]], tuple[bool, int]]


@dataclass
class AnchorTally:
    """One anchor rule in a cell: unchanged suites flagged, and each drop detected."""

    null: int = 0
    detected: list[int] = field(default_factory=list)


def anchor_suite(rule: AnchorRule, suite: Sequence[Draw], shift: float, only_first: bool
                 ) -> tuple[bool, bool]:
    """(any metric flagged, metric 0 flagged): the rule sees the baseline boots and the last
    candidate boot's runs, as a run of one new boot."""
    flags = []
    for j, (base, cand) in enumerate(suite):
        moved = shift if (j == 0 or not only_first) else 0.0
        flags.append(rule([s.samples for s in base], [v * (1 + moved) for v in cand[-1]])[0])
    return any(flags), flags[0]


@dataclass
class CellTally:
    suites: int = 0
    failed: int = 0
    failed_metric: int = 0
    failed_suite_mean: int = 0
    passes: int = 0
    metrics: int = 0
    null_regressions: int = 0  # unchanged metrics failed (by their test or Holm's later steps)
    null_inconclusive: int = 0  # unchanged metrics left inconclusive by their test
    catch: list[float] | None = None
    detected: list[int] | None = None
    anchors: dict[str, AnchorTally] = field(default_factory=dict)


def run_boot_cell(cell: BootCell, trials: int, seed: int,
                  anchors: dict[str, AnchorRule] | None = None) -> CellTally:
    rng = random.Random(f"{seed}-{cell.label}-{cell.k}-{cell.c}")
    fixed = BootPlan(RUNS, MAX_RUNS, cell.c, alpha=per_test_alpha(cell.metrics))
    tally = CellTally(catch=[], detected=[0] * len(cell.drops))
    for name in anchors or {}:
        tally.anchors[name] = AnchorTally(detected=[0] * len(cell.drops))
    for _ in range(trials):
        suite = draw_suite(rng, cell)
        for name, rule in (anchors or {}).items():
            anchor = tally.anchors[name]
            anchor.null += anchor_suite(rule, suite, 0.0, True)[0]
            for i, (kind, shift) in enumerate(cell.drops):
                hit = anchor_suite(rule, suite, shift, kind == "lone")
                anchor.detected[i] += hit[1] if kind == "lone" else hit[0]
        bases = [reduce_side(base) for base, _ in suite]
        plan = dataclasses.replace(fixed, tail_weight=tail_weight(bases))  # as the plugin does
        null = [judge_metric(b, cand, 0.0, plan) for b, (_, cand) in zip(bases, suite, strict=True)]
        verdict = _family(bases, null)
        tally.suites += 1
        tally.metrics += cell.metrics
        tally.failed += verdict.failed
        tally.failed_metric += bool(verdict.regressions)
        tally.failed_suite_mean += verdict.suite.status == "regression"
        tally.null_regressions += len(verdict.regressions)
        tally.null_inconclusive += sum(j.decision.status == "inconclusive" for j in null)
        tally.passes += sum(one.decision.status == "pass" for one in null)
        assert tally.catch is not None and tally.detected is not None
        tally.catch.append(statistics.median(j.decision.catch95_pct for j in null))
        for i, (kind, shift) in enumerate(cell.drops):
            if kind == "lone":
                judged = [judge_metric(bases[0], suite[0][1], shift, plan), *null[1:]]
                tally.detected[i] += "m0" in _family(bases, judged).regressions
            else:
                judged = [judge_metric(b, cand, shift, plan)
                          for b, (_, cand) in zip(bases, suite, strict=True)]
                tally.detected[i] += _family(bases, judged).failed
    return tally


def _family(bases: Sequence[BootSide], judged: Sequence[Judged]) -> FamilyVerdict:
    """The end of the run over the metrics ``m0``, ``m1``, ...: Holm's later steps and the
    suite-mean test (each p-value as its test counted it: one regression look here)."""
    names = [f"m{j}" for j in range(len(judged))]
    metrics = [SuiteMetric(n, base, j.candidate, "lower")
               for n, base, j in zip(names, bases, judged, strict=True)]
    return close_family([(n, j.decision) for n, j in zip(names, judged, strict=True)],
                        suite_mean_test(metrics))


def interval(hits: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


HEAD = ["| cell (25 metrics, 3 runs a boot) | k baseline vs c candidate boots | unchanged "
        "suites failing (95% interval; metric / suite mean) | target <= 5% | unchanged metrics "
        "judged pass | 95% of drops >= (median metric) | detected (target) |",
        "|---|---|---|---|---|---|---|"]


def row(cell: BootCell, t: CellTally) -> str:
    low, high = interval(t.failed, t.suites)
    rate = t.failed / t.suites
    detect = "; ".join(
        f"{kind} {100 * shift:g}%: {pct(hits / t.suites)} (>= {pct(target)}: "
        f"{'met' if hits / t.suites >= target else 'NOT met'})"
        for (kind, shift), target, hits in zip(cell.drops, cell.targets, t.detected or [],
                                                   strict=True))
    catch = statistics.median(t.catch) if t.catch else math.inf
    return (f"| {cell.label}{', shared' if cell.shared and 'shared' not in cell.label else ''} "
            f"| {cell.k} vs {cell.c} | {pct(rate)} ({pct(low)}-{pct(high)}; "
            f"{pct(t.failed_metric / t.suites)} / {pct(t.failed_suite_mean / t.suites)}) | "
            f"{'met' if rate <= 0.05 else 'NOT met'} | {pct(t.passes / t.metrics)} | "
            f"{catch:.1f}% | {detect or '-'} |")


def anchor_rows(cell: BootCell, t: CellTally) -> list[str]:
    out = []
    for name, a in t.anchors.items():
        detect = "; ".join(f"{kind} {100 * shift:g}%: {pct(hits / t.suites)}"
                           for (kind, shift), hits in zip(cell.drops, a.detected, strict=True))
        out.append(f"| {cell.label} | {name} | {pct(a.null / t.suites)} | {detect} |")
    return out


def boots_table(which: str, trials: int, seed: int,
                anchors: dict[str, AnchorRule] | None = None) -> list[str]:
    """The cells' rows; for the detection cells, the anchors' rules on the same draws."""
    lines = list(HEAD)
    beside = ["", "The anchors' rules on the same draws of the detection cells (each sees the "
              "baseline boots and the last candidate boot's runs, as a run of one new boot):",
              "", "| cell | rule | unchanged suites failing | detected |", "|---|---|---|---|"]
    cells = {"bound": bound_cells(), "detect": detect_cells()}.get(
        which, bound_cells() + detect_cells())
    for cell in cells:
        tally = run_boot_cell(cell, trials, seed, anchors if cell.drops else None)
        lines.append(row(cell, tally))
        beside += anchor_rows(cell, tally)
    return lines + beside if len(beside) > 5 else lines
