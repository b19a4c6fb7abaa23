"""What the gate decides, look by look: the shipped rule over whole suites at 1, 2, 3 and 6
candidate boots, under each way a label's boots come.

    python3 benchmarks/gate_simulation.py --cells looks [--trials 500] [--seed 2026]

Each trial is a suite of 25 metrics (lower is better), 10 baseline boots of 3 runs and six
candidate boots, drawn as :mod:`gate_boots` draws them (a run is ``100 x (1 + shift) x (1 +
boot offset) x (1 + noise)``).  Three versions of the same draws are judged (common random
numbers): unchanged; every metric truly ``delta`` (3%) slower; metric 0 alone 3% slower.  Three
protocols:

- **compare**: ``sbcbench compare B c1 ... cc`` on results files of 3 runs a boot, an
  every-boot plan (budget 6), each file judged as compare judges it (the file's plan: 3 runs,
  a budget of 6; what is still ``continue`` at 3 runs judged as final);
- **by hand**: boots recorded by hand (the same every-boot plan), each boot's run loop taking
  3 runs, then one more while ``continue``, up to 6;
- **--sbc-boots c**: a fixed plan, one look at boot c with the whole rates (the boots before
  it ``pending``), the same run loop.

At each candidate boot c: the share of unchanged suites that failed at any look so far (the
bound, at most 5%), the share of unchanged metrics judged ``pass``, the share of metrics truly
``delta`` slower judged ``pass`` at any look so far (a false pass; at most 5%), and the share
of lone 3% drops caught at any look so far.  ``--sbc-boots auto`` is the by-hand looks booting
on until the gate fails or every metric is decided.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gate_boots import BootCell, draw_suite, interval, pct
from gate_protocols import Look, auto_stop, family_at, look_boots, with_tails

from pytest_sbcbench.judge.boot_decide import BootDecision, BootPlan, decide_sides
from pytest_sbcbench.judge.boot_test import BootSession, BootSide, reduce_side
from pytest_sbcbench.judge.family import per_test_alpha
from pytest_sbcbench.judge.looks import DEFAULT_BOOT_BUDGET

LOOKS = (1, 2, 3, 6)
DELTA = 0.03
PROTOCOLS = ("compare", "by hand", "--sbc-boots c")


def look_cells() -> list[BootCell]:
    """Ten baseline boots; the design cell, quieter and noisier normal boards, heavy tails,
    an outlier baseline boot and a drift every metric shares."""
    return [
        BootCell("CV 1%, drift 0.5%", 10, 0, (0.01,), (0.005,)),
        BootCell("CV 1%, drift 0.5%; 6 runs a boot (runs dominate)", 10, 0, (0.01,), (0.005,),
                 runs=6),
        BootCell("CV 0.5%, drift 0.5%", 10, 0, (0.005,), (0.005,)),
        BootCell("CV 0.3%, drift 1%", 10, 0, (0.003,), (0.01,)),
        BootCell("CV 0.5%, drift 1%", 10, 0, (0.005,), (0.01,)),
        BootCell("Student-t(3) boots; CV 0.5%, drift 1%", 10, 0, (0.005,), (0.01,),
                 offsets="t3"),
        BootCell("one baseline boot 4 SD fast; CV 1%, drift 0.5%", 10, 0, (0.01,), (0.005,),
                 offsets="outlier"),
        BootCell("drift 0.5% shared by every metric; CV 1%", 10, 0, (0.01,), (0.005,), True),
    ]


@dataclass
class LookTally:
    """One protocol in one cell, per look c (index c - 1)."""

    suites: int = 0
    failed: list[int] = field(default_factory=lambda: [0] * DEFAULT_BOOT_BUDGET)
    passes: list[int] = field(default_factory=lambda: [0] * DEFAULT_BOOT_BUDGET)
    false_passes: list[int] = field(default_factory=lambda: [0] * DEFAULT_BOOT_BUDGET)
    caught: list[int] = field(default_factory=lambda: [0] * DEFAULT_BOOT_BUDGET)
    exit0: list[int] = field(default_factory=lambda: [0] * DEFAULT_BOOT_BUDGET)
    metrics: int = 0
    auto_failed: int = 0
    auto_boots: list[int] = field(default_factory=list)
    auto_caught: int = 0
    auto_drop_boots: list[int] = field(default_factory=list)


Judged = list[tuple[BootDecision, BootSide]]  # one metric, per candidate boot


def compare_boots(base: BootSide, boots: Sequence[tuple[float, ...]], plan: BootPlan,
                  shift: float) -> Judged:
    """One metric through ``sbcbench compare`` at each candidate boot: the files' first 3 runs,
    judged with the file's plan, a ``continue`` judged again as final (verdict.final_decision)."""
    runs = plan.min_runs
    sessions = [BootSession(tuple(v * (1.0 + shift) for v in b[:runs]), f"c{i}")
                for i, b in enumerate(boots)]
    final = dataclasses.replace(plan, max_runs=runs)
    out = []
    for c in range(1, len(sessions) + 1):
        side = reduce_side(sessions[:c])
        d = decide_sides(base, side, runs, "lower", plan, explain=False)
        if d.status == "continue":
            d = decide_sides(base, side, runs, "lower", final, explain=False)
        out.append((d, side))
    return out


Protocol = Callable[[BootSide, Sequence[tuple[float, ...]], BootPlan, float], Judged]


def _looks(bases: Sequence[BootSide], suite: Sequence[tuple[object, list[tuple[float, ...]]]],
           plan: BootPlan, judge: Protocol, shifts: Sequence[float],
           cached: Sequence[Judged] | None = None) -> tuple[list[Judged], list[Look]]:
    per = []
    for j, (base, (_, cand)) in enumerate(zip(bases, suite, strict=True)):
        if cached is not None and shifts[j] == 0.0:
            per.append(cached[j])
        else:
            per.append(judge(base, cand, plan, shifts[j]))
    looks = [family_at(bases, [m[c] for m in per], plan) for c in range(len(per[0]))]
    return per, looks


def run_look_cell(cell: BootCell, trials: int, seed: int) -> dict[str, LookTally]:
    rng = random.Random(f"{seed}-looks-{cell.label}")
    alpha = per_test_alpha(cell.metrics)
    every = BootPlan(cell.runs, 2 * cell.runs, DEFAULT_BOOT_BUDGET, alpha=alpha,
                     every_boot=True)
    tallies = {p: LookTally() for p in PROTOCOLS}
    m = cell.metrics
    for _ in range(trials):
        suite = draw_suite(rng, cell, DEFAULT_BOOT_BUDGET)
        bases = [reduce_side(b) for b, _ in suite]
        plan = with_tails(every, bases)
        for name, judge in (("compare", compare_boots), ("by hand", look_boots)):
            t = tallies[name]
            null, null_looks = _looks(bases, suite, plan, judge, [0.0] * m)
            _, slow_looks = _looks(bases, suite, plan, judge, [DELTA] * m)
            _, lone_looks = _looks(bases, suite, plan, judge, [DELTA] + [0.0] * (m - 1), null)
            _tally_every(t, null_looks, slow_looks, lone_looks, m)
            if name == "by hand":
                stop, drop_stop = auto_stop(null_looks), auto_stop(lone_looks)
                t.auto_failed += any(x.failed for x in null_looks[:stop])
                t.auto_boots.append(stop)
                t.auto_caught += any("m0" in x.regressions for x in lone_looks[:drop_stop])
                t.auto_drop_boots.append(drop_stop)
        t = tallies["--sbc-boots c"]
        t.suites += 1
        t.metrics += m
        for c in LOOKS:
            fixed = with_tails(dataclasses.replace(every, boots=c, every_boot=False), bases)
            short = [(b, cand[:c]) for b, cand in suite]
            null, looks = _looks(bases, short, fixed, look_boots, [0.0] * m)
            _, slow = _looks(bases, short, fixed, look_boots, [DELTA] * m)
            _, lone = _looks(bases, short, fixed, look_boots, [DELTA] + [0.0] * (m - 1), null)
            t.failed[c - 1] += looks[-1].failed
            t.exit0[c - 1] += _exits_0(looks[-1])
            t.passes[c - 1] += sum(d.status == "pass" for d in looks[-1].decisions)
            t.false_passes[c - 1] += sum(d.status == "pass" for d in slow[-1].decisions)
            t.caught[c - 1] += "m0" in lone[-1].regressions
    return tallies


def _tally_every(t: LookTally, null: Sequence[Look], slow: Sequence[Look],
                 lone: Sequence[Look], m: int) -> None:
    t.suites += 1
    t.metrics += m
    failed = caught = False
    ever = [False] * m
    for c, (a, b, d) in enumerate(zip(null, slow, lone, strict=True)):
        failed |= a.failed
        caught |= "m0" in d.regressions
        ever = [e or x.status == "pass" for e, x in zip(ever, b.decisions, strict=True)]
        t.failed[c] += failed
        t.exit0[c] += _exits_0(a)
        t.caught[c] += caught
        t.passes[c] += sum(x.status == "pass" for x in a.decisions)
        t.false_passes[c] += sum(ever)


def _exits_0(look: Look) -> bool:
    """The gate at this look exits 0: every metric decided (pass or improvement), none failed
    by its test, Holm's later steps or the suite-mean test."""
    return not look.failed and all(d.status in ("pass", "improvement") for d in look.decisions)


HEAD = ["| cell (25 metrics, 10 baseline boots) | protocol | "
        + " | ".join(f"{c} candidate boot{'s' if c > 1 else ''}" for c in LOOKS) + " |",
        "|---|---|" + "---|" * len(LOOKS)]


def look_rows(cell: BootCell, tallies: dict[str, LookTally]) -> list[str]:
    """Per look: unchanged suites failed so far / unchanged metrics pass / metrics truly delta
    slower passed so far / lone 3% caught so far."""
    out = []
    for name, t in tallies.items():
        cells = []
        for c in LOOKS:
            i = c - 1
            cells.append(f"{pct(t.failed[i] / t.suites)} / {pct(t.passes[i] / t.metrics)} / "
                         f"{pct(t.false_passes[i] / t.metrics)} / "
                         f"{pct(t.caught[i] / t.suites)}")
        out.append(f"| {cell.label} | {name} | " + " | ".join(cells) + " |")
    return out


AUTO_HEAD = ["| cell (25 metrics, 10 baseline boots) | unchanged suites failing (95% interval) "
             "| candidate boots taken, unchanged (median) | lone 3% caught (95% interval) | "
             "candidate boots taken, lone 3% (median) |", "|---|---|---|---|---|"]


def auto_row(cell: BootCell, t: LookTally) -> str:
    low, high = interval(t.auto_failed, t.suites)
    clow, chigh = interval(t.auto_caught, t.suites)
    return (f"| {cell.label} | {pct(t.auto_failed / t.suites)} ({pct(low)}-{pct(high)}) | "
            f"{statistics.median(t.auto_boots):g} | {pct(t.auto_caught / t.suites)} "
            f"({pct(clow)}-{pct(chigh)}) | {statistics.median(t.auto_drop_boots):g} |")


def looks_tables(trials: int, seed: int, cells: Sequence[BootCell] | None = None,
                 progress: Callable[[str], None] | None = None) -> list[str]:
    """The look table, the auto table and the short table over ``cells`` (default
    :func:`look_cells`)."""
    lines = list(HEAD)
    auto = list(AUTO_HEAD)
    every: list[tuple[BootCell, dict[str, LookTally]]] = []
    for cell in cells if cells is not None else look_cells():
        tallies = run_look_cell(cell, trials, seed)
        every.append((cell, tallies))
        lines += look_rows(cell, tallies)
        auto.append(auto_row(cell, tallies["by hand"]))
        if progress is not None:
            progress(lines[-1])
    return [*lines, "", "`--sbc-boots auto` (budget 6) on the same draws:", "", *auto, "",
            "In short (the README's table):", "", *short_table(every)]


def short_table(every: Sequence[tuple[BootCell, dict[str, LookTally]]]) -> list[str]:
    """The bound and the false-pass rate at their worst over every cell and protocol, and the
    design cell's (the first) passes, exits 0 and lone 3% catches, at each look of LOOKS."""
    def share(t: LookTally, field_: str, c: int, per_metric: bool = False) -> float:
        hits: list[int] = getattr(t, field_)
        return hits[c - 1] / (t.metrics if per_metric else t.suites)

    def worst(field_: str, per_metric: bool = False) -> list[str]:
        return [pct(max(share(t, field_, c, per_metric) for _, ts in every
                        for t in ts.values())) for c in LOOKS]
    design = every[0][1]
    rows = [("unchanged suites failing, worst of every cell and protocol", worst("failed")),
            ("metrics truly 3% slower judged pass, worst of every cell and protocol",
             worst("false_passes", True))]
    for name in PROTOCOLS:
        t = design[name]
        rows.append((f"{every[0][0].label}, {name}: unchanged metrics judged pass / unchanged "
                     "suites exiting 0 / lone 3% caught",
                     [f"{pct(share(t, 'passes', c, True))} / {pct(share(t, 'exit0', c))} / "
                      f"{pct(share(t, 'caught', c))}" for c in LOOKS]))
    head = ["| 25 metrics, 10 baseline boots of 3 runs | " + " | ".join(
        f"{c} candidate boot{'s' if c > 1 else ''}" for c in LOOKS) + " |",
        "|---|" + "---|" * len(LOOKS)]
    return head + [f"| {label} | " + " | ".join(values) + " |" for label, values in rows]
