"""A label's boots under each protocol (issue 28), driven through the shipped decision code.

The suites of :mod:`gate_boots` (25 metrics, lower is better, k baseline boots of 3 runs), the
candidate's boots judged as the plugin and ``sbcbench compare`` judge them
(:func:`pytest_sbcbench.judge.boot_decide.decide_sides`, then
:func:`pytest_sbcbench.judge.family.close_family` at each look, each spending its boot's share of
the label's error budget, :class:`pytest_sbcbench.judge.looks.LabelPlan`):

- **fixed c** (``--sbc-boots c``): boots 1 to c - 1 pending at 3 runs, boot c looked at after 3
  runs and each further run up to 6 while undecided, with the whole budget and the board's tail
  weight from the suite's baseline boots (:func:`with_tails`, as the plugin takes it from the
  baseline file);
- **hand c** (boots recorded by hand, or ``sbcbench compare B c1 ... cc`` on the files, one
  compare per boot): every boot a look at 1/B of the budget (B = 6, the default
  ``--sbc-boots-budget``), c boots recorded; the suite fails when any of its c looks fails;
- **auto** (``--sbc-boots auto``): the same looks, booting on until the gate has failed or every
  metric is decided (pass, regression, improvement), or B boots are spent.

Per protocol and cell: the share of unchanged suites failing (Wilson 95% interval), the share of
lone 3% drops on metric 0 caught (its realized power), the share of unchanged metrics judged
``pass``, and for auto the candidate
boots it took (median) and the share of suites it decided before the budget."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gate_boots import (
    CV_MIX,
    FIVE_OF_25,
    MAX_RUNS,
    ONE_OF_25,
    RUNS,
    BootCell,
    Draw,
    draw_suite,
    interval,
    pct,
)

from pytest_sbcbench.judge.boot_decide import METRIC_RATE, BootDecision, BootPlan, decide_sides
from pytest_sbcbench.judge.boot_tails import tail_weight
from pytest_sbcbench.judge.boot_test import BootSession, BootSide, reduce_side
from pytest_sbcbench.judge.family import (
    SUITE_RATE,
    SuiteMetric,
    close_family,
    per_test_alpha,
    suite_mean_test,
)
from pytest_sbcbench.judge.looks import DEFAULT_BOOT_BUDGET
from pytest_sbcbench.judge.tdist import t_ppf

DECIDED = ("pass", "regression", "improvement")
LONE = 0.03


@dataclass(frozen=True)
class Look:
    """Every metric's decision at one candidate boot, and whether the gate failed there."""

    decisions: tuple[BootDecision, ...]
    failed: bool
    regressions: tuple[str, ...]


def look_boots(base: BootSide, boots: Sequence[tuple[float, ...]], plan: BootPlan,
               shift: float) -> list[tuple[BootDecision, BootSide]]:
    """One metric through its candidate boots in order: each boot's run loop (3 runs, then one
    more while ``continue``, up to 6), the earlier boots with the runs their looks took."""
    scale = 1.0 + shift
    sessions: list[BootSession] = []
    out = []
    for c, boot in enumerate(boots, start=1):
        values = tuple(v * scale for v in boot)
        for n in range(plan.min_runs, plan.max_runs + 1):
            now = (*sessions, BootSession(values[:n], f"c{c}"))
            side = reduce_side(now)
            d = decide_sides(base, side, n, "lower", plan, explain=False)
            if d.status != "continue":
                break
        sessions.append(BootSession(values[:d.samples_used], f"c{c}"))
        out.append((d, side))
    return out


def family_at(bases: Sequence[BootSide], judged: Sequence[tuple[BootDecision, BootSide]],
              plan: BootPlan) -> Look:
    """The end of a look over metrics m0, m1, ... as :func:`pytest_sbcbench.judge.closing.
    close_run` does it: each p-value counted over the regression looks at its boot's share,
    Holm at 4%, the suite-mean test at 1% x the share."""
    share = judged[0][0].spent
    decisions = tuple(d for d, _ in judged)
    if share == 0:
        return Look(decisions, False, ())
    looks = len(plan.regression_looks)
    names = [f"m{j}" for j in range(len(judged))]
    counted = [(n, _counted(d, looks)) for n, d in zip(names, decisions, strict=True)]
    metrics = [SuiteMetric(n, b, side, "lower")
               for n, b, (_, side) in zip(names, bases, judged, strict=True)]
    verdict = close_family(counted, suite_mean_test(metrics, SUITE_RATE * share), METRIC_RATE)
    return Look(decisions, verdict.failed, verdict.regressions)


def _counted(d: BootDecision, looks: int) -> BootDecision:
    p = min(1.0, d.p_value * looks / d.spent) if d.spent else 1.0
    return BootDecision(**{**d.__dict__, "p_value": p})


def looks_of(bases: Sequence[BootSide], suite: Sequence[Draw], plan: BootPlan, boots: int,
             lone: float | None = None, cached: Sequence[list[tuple[BootDecision, BootSide]]]
             | None = None) -> list[Look]:
    """The gate at each of the first ``boots`` candidate boots; ``lone``: metric 0 shifted
    (the other metrics reused from ``cached``)."""
    per_metric = []
    for j, (base, (_, cand)) in enumerate(zip(bases, suite, strict=True)):
        if cached is not None and (lone is None or j > 0):
            per_metric.append(cached[j])
        else:
            shift = lone if lone is not None and j == 0 else 0.0
            per_metric.append(look_boots(base, cand[:boots], plan, shift))
    return [family_at(bases, [m[c] for m in per_metric], plan) for c in range(boots)]


def auto_stop(looks: Sequence[Look]) -> int:
    """The boots ``--sbc-boots auto`` takes: up to the first look where the gate failed or every
    metric is decided, else all of them (the budget)."""
    for c, look in enumerate(looks, start=1):
        if look.failed or all(d.status in DECIDED for d in look.decisions):
            return c
    return len(looks)


@dataclass
class Tally:
    """One protocol in one cell."""

    suites: int = 0
    failed: int = 0
    caught: int = 0
    passes: int = 0
    metrics: int = 0
    boots: list[int] = field(default_factory=list)  # auto: boots taken, unchanged suites
    drop_boots: list[int] = field(default_factory=list)  # auto: boots taken, lone drop
    decided: int = 0  # auto: unchanged suites decided before the budget ran out


PROTOCOLS = ("fixed 1", "fixed 3", "hand 1", "hand 3", "auto")


def _plans(metrics: int, budget: int) -> dict[str, BootPlan]:
    alpha = per_test_alpha(metrics)
    return {"fixed 1": BootPlan(RUNS, MAX_RUNS, 1, alpha=alpha),
            "fixed 3": BootPlan(RUNS, MAX_RUNS, 3, alpha=alpha),
            "every": BootPlan(RUNS, MAX_RUNS, budget, alpha=alpha, every_boot=True)}


def run_cell(cell: BootCell, trials: int, seed: int, budget: int = DEFAULT_BOOT_BUDGET,
             protocols: Sequence[str] = PROTOCOLS) -> dict[str, Tally]:
    """Every protocol on the same draws (common random numbers), k baseline boots against up
    to ``budget`` candidate boots."""
    rng = random.Random(f"{seed}-{cell.label}-{cell.k}-{cell.offsets}")
    plans = _plans(cell.metrics, budget)
    tallies = {p: Tally() for p in protocols}
    for _ in range(trials):
        suite = draw_suite(rng, cell, budget)
        bases = [reduce_side(base) for base, _ in suite]
        outcomes = _trial(bases, suite, plans, budget, protocols)
        for name, (failed, caught, passes, boots, drop_boots, decided) in outcomes.items():
            t = tallies[name]
            t.suites += 1
            t.metrics += cell.metrics
            t.failed += failed
            t.caught += caught
            t.passes += passes
            if name == "auto":
                t.boots.append(boots)
                t.drop_boots.append(drop_boots)
                t.decided += decided
    return tallies


Outcome = tuple[bool, bool, int, int, int, bool]


def _trial(bases: Sequence[BootSide], suite: Sequence[Draw], plans: dict[str, BootPlan],
           budget: int, protocols: Sequence[str]) -> dict[str, Outcome]:
    out: dict[str, Outcome] = {}
    for name in ("fixed 1", "fixed 3"):
        if name not in protocols:
            continue
        c, plan = int(name.split()[1]), with_tails(plans[name], bases)
        cached = [look_boots(b, cand[:c], plan, 0.0) for b, (_, cand) in zip(bases, suite,
                                                                               strict=True)]
        last = looks_of(bases, suite, plan, c, cached=cached)[-1]
        hit = looks_of(bases, suite, plan, c, LONE, cached)[-1]
        out[name] = (last.failed, "m0" in hit.regressions, _passes(last), c, c, True)
    if not any(p.startswith(("hand", "auto")) for p in protocols):
        return out
    plan = with_tails(plans["every"], bases)  # as the plugin and compare take it
    cached = [look_boots(b, cand, plan, 0.0) for b, (_, cand) in zip(bases, suite, strict=True)]
    null = looks_of(bases, suite, plan, budget, cached=cached)
    drop = looks_of(bases, suite, plan, budget, LONE, cached)
    for name in protocols:
        if name.startswith("hand"):
            c = int(name.split()[1])
            out[name] = (any(x.failed for x in null[:c]),
                         any("m0" in x.regressions for x in drop[:c]), _passes(null[c - 1]),
                         c, c, True)
    if "auto" in protocols:
        stop, drop_stop = auto_stop(null), auto_stop(drop)
        decided = null[stop - 1].failed or all(d.status in DECIDED
                                              for d in null[stop - 1].decisions)
        out["auto"] = (any(x.failed for x in null[:stop]),
                       any("m0" in x.regressions for x in drop[:drop_stop]),
                       _passes(null[stop - 1]), stop, drop_stop, decided)
    return out


def with_tails(plan: BootPlan, bases: Sequence[BootSide]) -> BootPlan:
    """A fixed plan with the board's tail weight from the suite's baseline boots, as the
    plugin and ``sbcbench compare`` set it from the baseline file
    (:func:`pytest_sbcbench.judge.boot_tails.tail_weight`)."""
    return dataclasses.replace(plan, tail_weight=tail_weight(bases))


def _passes(look: Look) -> int:
    return sum(d.status == "pass" for d in look.decisions)


def protocol_cells() -> list[BootCell]:
    """The 16 mixes x k of the bound cells (c is the protocol's), then the heavy-tailed and
    one-outlier-boot cells."""
    cells = []
    for k in (2, 3, 5, 10):
        cells += [BootCell("1 at 1% drift, 24 at 0; CV 1%", k, 0, (0.01,), ONE_OF_25),
                  BootCell("5 at 1%, 20 at 0.25% drift; CV 1%", k, 0, (0.01,), FIVE_OF_25),
                  BootCell("CV 0.3/1/3%, drift 1%", k, 0, CV_MIX, (0.01,)),
                  BootCell("drift 0.5% shared by all; CV 1%", k, 0, (0.01,), (0.005,), True)]
    return cells + heavy_cells()


def heavy_cells() -> list[BootCell]:
    cells = []
    for k in (3, 10):
        cells += [BootCell("t(3) offsets, drift 1%, CV 0.3%", k, 0, (0.003,), (0.01,),
                           offsets="t3"),
                  BootCell("t(3) offsets, drift 0.5%, CV 1%", k, 0, (0.01,), (0.005,),
                           offsets="t3"),
                  BootCell("one baseline boot 4 SD fast; drift 1%, CV 0.3%", k, 0, (0.003,),
                           (0.01,), offsets="outlier"),
                  BootCell("one baseline boot 4 SD fast; drift 0.5%, CV 1%", k, 0, (0.01,),
                           (0.005,), offsets="outlier")]
    return cells


EVERY_BOOT = ("hand 1", "hand 3", "auto")


def protocols_of(cell: BootCell) -> tuple[str, ...]:
    """The protocols a cell is run under: the bound mixes' --sbc-boots 1 and 3 are the bound
    table's own cells (:func:`gate_boots.bound_cells`), so only the every-boot protocols here;
    the heavy-tailed and outlier cells under all five."""
    return PROTOCOLS if cell.offsets != "normal" else EVERY_BOOT


PROTOCOL_NAMES = {"fixed 1": "--sbc-boots 1", "fixed 3": "--sbc-boots 3",
                  "hand 1": "1 boot by hand / compare", "hand 3": "3 boots by hand / compare",
                  "auto": "--sbc-boots auto"}
HEAD = ["| cell (25 metrics, 3 runs a boot) | k | protocol | unchanged suites failing (95% "
        "interval) | <= 5% | lone 3% caught (power) | unchanged metrics judged pass | auto: "
        "boots (median; lone 3%), decided |",
        "|---|---|---|---|---|---|---|---|"]


def rows(cell: BootCell, tallies: dict[str, Tally]) -> list[str]:
    out = []
    for name, t in tallies.items():
        low, high = interval(t.failed, t.suites)
        rate, power = t.failed / t.suites, t.caught / t.suites
        passing = t.passes / t.metrics
        auto = "-"
        if t.boots:
            auto = (f"{statistics.median(t.boots):g}; {statistics.median(t.drop_boots):g}, "
                    f"{pct(t.decided / t.suites)}")
        out.append(f"| {cell.label} | {cell.k} | {PROTOCOL_NAMES[name]} | {pct(rate)} "
                   f"({pct(low)}-{pct(high)}) | {'met' if rate <= 0.05 else 'NOT met'} | "
                   f"{pct(power)} | {pct(passing)} | {auto} |")
    return out


def protocols_table(trials: int, seed: int, cells: Sequence[BootCell] | None = None,
                    progress: Callable[[str], None] | None = None) -> list[str]:
    lines = list(HEAD)
    for cell in cells if cells is not None else protocol_cells():
        lines += rows(cell, run_cell(cell, trials, seed, protocols=protocols_of(cell)))
        if progress is not None:
            progress(lines[-1])
    return lines


def plain_t(base: Sequence[BootSession], cand: Sequence[tuple[float, ...]], shift: float,
            alpha: float) -> bool:
    """A plain two-sample t on boot means (each boot's first 3 runs), one-sided at ``alpha``."""
    b = [statistics.fmean(math.log(v) for v in s.samples) for s in base]
    c = [statistics.fmean(math.log(v * (1 + shift)) for v in boot[:RUNS]) for boot in cand]
    k, n = len(b), len(c)
    ss = sum((x - statistics.fmean(b)) ** 2 for x in b) + sum(
        (x - statistics.fmean(c)) ** 2 for x in c)
    df = k + n - 2
    se = math.sqrt(ss / df * (1 / k + 1 / n))
    return statistics.fmean(c) - statistics.fmean(b) > t_ppf(1 - alpha, df) * se


def few_boots_table(trials: int, seed: int) -> list[str]:
    """Item 2: lone 3% (CV 1%, drift 0.5%, 10 baseline boots) at 1 and 2 candidate boots
    (``--sbc-boots c``), beside a plain two-sample t on boot means at the same alpha."""
    lines = ["| candidate boots (--sbc-boots c) | lone 3% caught by the gate (95% interval) | "
             "plain two-sample t on boot means (alpha 0.04 / 25) | difference |",
             "|---|---|---|---|"]
    for c in (1, 2):
        cell = BootCell("lone 3% drop; CV 1%, drift 0.5%", 10, c, (0.01,), (0.005,))
        rng = random.Random(f"{seed}-few-{c}")
        fixed = BootPlan(RUNS, MAX_RUNS, c, alpha=per_test_alpha(cell.metrics))
        gate = t_hits = 0
        for _ in range(trials):
            suite = draw_suite(rng, cell)
            bases = [reduce_side(base) for base, _ in suite]
            plan = with_tails(fixed, bases)
            cached = [look_boots(b, cand, plan, 0.0) for b, (_, cand) in zip(bases, suite,
                                                                               strict=True)]
            drop = looks_of(bases, suite, plan, c, LONE, cached)[-1]
            gate += "m0" in drop.regressions
            t_hits += plain_t(suite[0][0], suite[0][1], LONE, fixed.alpha)
        low, high = interval(gate, trials)
        lines.append(f"| {c} | {pct(gate / trials)} ({pct(low)}-{pct(high)}) | "
                     f"{pct(t_hits / trials)} | {100 * (gate - t_hits) / trials:+.1f} points |")
    return lines


def auto_detect_table(trials: int, seed: int, cells: Sequence[BootCell]) -> list[str]:
    """``--sbc-boots auto`` on the detection cells: each drop caught, and the boots taken."""
    lines = ["| cell (10 baseline boots) | drop | --sbc-boots auto caught (target) | candidate "
             "boots taken (median, 90th percentile) |", "|---|---|---|---|"]
    for cell in cells:
        rng = random.Random(f"{seed}-auto-{cell.label}")
        plan = _plans(cell.metrics, DEFAULT_BOOT_BUDGET)["every"]
        for (kind, shift), target in zip(cell.drops, cell.targets, strict=True):
            hits, taken = 0, []
            for _ in range(trials):
                suite = draw_suite(rng, cell, DEFAULT_BOOT_BUDGET)
                bases = [reduce_side(base) for base, _ in suite]
                per = [look_boots(b, cand, plan, shift if kind == "suite" or j == 0 else 0.0)
                       for j, (b, (_, cand)) in enumerate(zip(bases, suite, strict=True))]
                looks = [family_at(bases, [m[c] for m in per], plan)
                         for c in range(DEFAULT_BOOT_BUDGET)]
                stop = auto_stop(looks)
                hits += any(x.failed if kind == "suite" else "m0" in x.regressions
                            for x in looks[:stop])
                taken.append(stop)
            taken.sort()
            rate = hits / trials
            lines.append(f"| {cell.label} | {kind} {100 * shift:g}% | {pct(rate)} (>= "
                         f"{pct(target)}: {'met' if rate >= target else 'NOT met'}) | "
                         f"{statistics.median(taken):g}, {taken[int(0.9 * (trials - 1))]} |")
    return lines
