"""How good are the verdicts?  A reproducible simulation of whole suites against other tools' rules.

    python3 benchmarks/gate_simulation.py [--trials 400] [--seed 2026] [--quick]
    python3 benchmarks/gate_simulation.py --tradeoff [--trials 200]   # runs a boot vs pooling
    python3 benchmarks/gate_simulation.py --replay                    # real samples of this VM
    python3 benchmarks/gate_simulation.py --boots bound|detect|all [--trials 2000]
                                           # candidate boots, Holm + suite mean (gate_boots.py)

Each trial is a suite of 25 metrics (compile-time-like, lower is better).  Every metric has a
baseline of ``boots`` boots x 3 runs; this run is a new boot.  A sample is
``100 x (1 + shift) x (1 + boot offset) x (1 + noise)`` with the boot offset drawn once per boot
(SD ``drift``, independent per metric: the worst case for a suite; "mixed" cells give the 25
metrics drifts of 0, 0.25, 0.5, 1 and 2% in turn) and the noise per run (SD ``cv``).  The
same random draws serve every shift and every rule (common random numbers).

This project's :func:`pytest_sbcbench.judge.sequential.decide` runs sequentially: looked at
after 3 runs and after each further run up to 6 (``SequentialPlan.default(3)``, per-metric alpha
0.05 / 25, the between-boot prior pooled over the suite's baseline).  The other rules see the
first 3 runs (the Phoronix Test Suite its own dynamic count) and the same baseline:

- pytest-benchmark ``--benchmark-compare-fail=mean:5%``: the mean 5% worse than the latest
  baseline session's;
- pyperf ``compare_to``: its two-sample t-test at 95% (``pyperf._utils.is_significant``) and
  slower, against the latest session (its t-score needs equal counts);
- asv: slower by a factor over 1.1 and non-overlapping 99% intervals (Student-t standing in for
  its Laplace-posterior interval; its Mann-Whitney test cannot reach p < 0.002 with 9 vs 3);
- the Phoronix Test Suite: a mean move over 2% the bad way, after its dynamic run count (runs
  added while the relative standard deviation exceeds 3.5%, up to 2x the 3 runs);
- LKP-tests (the kernel test robot): ranges that do not overlap, at least 3 samples a side;
- Bencher's t-test threshold: this run's mean beyond the baseline samples' mean plus
  t(0.99, n - 1) standard deviations (it judges one new value against history).

Reported per cell: false alarms per metric and per suite (any of 25 metrics flagged, shift 0),
detection per metric (shifts 1-10%), the share of verdicts that are ``inconclusive``, ``pass``
given when a 3% (delta) regression was real, and the mean runs used.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pyperf._utils import is_significant

from pytest_sbcbench.judge.boots import (
    PRIOR_DF_CAP,
    PRIOR_DF_FLOOR,
    BaselineSession,
    suite_boot_prior,
)
from pytest_sbcbench.judge.sequential import Decision, SequentialPlan, decide
from pytest_sbcbench.judge.tdist import t_ppf
from pytest_sbcbench.measure.openssl_parse import parse_speed

Baseline = Sequence[Sequence[float]]
Rule = Callable[[Baseline, Sequence[float]], tuple[bool, int]]
N_METRICS = 25
RUNS = 3
ALL_SHIFTS = (0.0, 0.01, 0.03, 0.05, 0.10)


MIXED = (0.0, 0.0025, 0.005, 0.01, 0.02)  # drift SD of metric j: MIXED[j % 5]


@dataclass(frozen=True)
class Scenario:
    cv: float
    drift: float | tuple[float, ...]  # one SD for every metric, or cycled over the metrics
    boots: int
    shifts: tuple[float, ...] = (0.0, 0.03)

    @property
    def name(self) -> str:
        drift = (f"{100 * self.drift:g}%" if isinstance(self.drift, float)
                 else "mixed " + "/".join(f"{100 * d:g}" for d in self.drift) + "%")
        return f"CV {100 * self.cv:g}%, drift {drift}, {self.boots} boot(s)"

    def drift_of(self, metric: int) -> float:
        return self.drift if isinstance(self.drift, float) else self.drift[metric % len(
            self.drift)]


SCENARIOS = (
    Scenario(0.003, 0.0, 3, ALL_SHIFTS),
    Scenario(0.003, 0.005, 3, ALL_SHIFTS),
    Scenario(0.01, 0.0, 3, ALL_SHIFTS),
    Scenario(0.01, 0.005, 3, ALL_SHIFTS),
    Scenario(0.003, 0.01, 3),
    Scenario(0.01, 0.01, 3),
    Scenario(0.03, 0.0, 3),
    Scenario(0.03, 0.01, 3),
    Scenario(0.01, 0.02, 3),
    Scenario(0.01, 0.005, 1),
    Scenario(0.01, 0.005, 2),
    Scenario(0.01, 0.005, 5),
    Scenario(0.01, 0.01, 1),
    Scenario(0.01, 0.01, 5),
    Scenario(0.003, MIXED, 3),
    Scenario(0.01, MIXED, 3),
)
QUICK = (SCENARIOS[3], SCENARIOS[7])


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


ANCHORS: dict[str, Rule] = {
    "pytest-benchmark mean:5%": pytest_benchmark,
    "pyperf compare_to (t-test 95%)": pyperf_rule,
    "asv (factor 1.1 + 99% intervals)": asv_rule,
    "Phoronix 2% + dynamic runs": phoronix,
    "LKP-tests range separation": lkp,
    "Bencher t-test (99%)": bencher,
}
OURS = "sbcbench sequential (this project)"


@dataclass
class Tally:
    """Counts for one rule in one cell (scenario, shift)."""

    metrics: int = 0
    suites: int = 0
    flagged: int = 0
    suites_flagged: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    runs: int = 0

    def share(self, status: str) -> float:
        return self.statuses.get(status, 0) / max(1, self.metrics)


def sequential(sessions: Sequence[BaselineSession], cur: Sequence[float], plan: SequentialPlan
               ) -> tuple[str, int]:
    """The run loop as the plugin drives it: decide after min_runs and each further run."""
    for n in range(plan.min_runs, plan.max_runs + 1):
        status = decide(sessions, cur[:n], "lower", plan).status
        if status != "continue":
            return status, n
    raise AssertionError("decide returned 'continue' at max_runs")


def draw_suite(rng: random.Random, sc: Scenario, max_runs: int
               ) -> list[tuple[list[list[float]], list[float]]]:
    """Per metric: baseline boots of RUNS samples and this run's samples (unshifted)."""
    def boot(n: int, drift: float) -> list[float]:
        offset = 1.0 + rng.gauss(0.0, drift)
        return [100.0 * offset * (1.0 + rng.gauss(0.0, sc.cv)) for _ in range(n)]
    return [([boot(RUNS, sc.drift_of(j)) for _ in range(sc.boots)], boot(max_runs, sc.drift_of(j)))
            for j in range(N_METRICS)]


def run_cell(sc: Scenario, trials: int, seed: int, prior_floor: float = PRIOR_DF_FLOOR,
             prior_cap: float = PRIOR_DF_CAP, anchors: bool = True
             ) -> dict[tuple[str, float], Tally]:
    rng = random.Random(f"{seed}-{sc.name}")
    tallies: dict[tuple[str, float], Tally] = {}
    for _ in range(trials):
        suite = draw_suite(rng, sc, 3 * RUNS)  # enough for any budget
        sessions = [[BaselineSession(tuple(b), str(i)) for i, b in enumerate(base)]
                    for base, _ in suite]
        prior = suite_boot_prior(sessions, prior_floor, prior_cap)
        plan = SequentialPlan.default(RUNS, N_METRICS, boot_prior=prior)
        rules = ANCHORS if anchors else {}
        for shift in sc.shifts:
            flagged = dict.fromkeys([OURS, *rules], False)
            for (base, noise), sess in zip(suite, sessions, strict=True):
                cur = [v * (1.0 + shift) for v in noise]
                status, runs = sequential(sess, cur, plan)
                _count(tallies, OURS, shift, status, runs)
                flagged[OURS] |= status == "regression"
                for name, rule in rules.items():
                    hit, runs = rule(base, cur)
                    _count(tallies, name, shift, "regression" if hit else "pass", runs)
                    flagged[name] |= hit
            for name, hit in flagged.items():
                tallies[(name, shift)].suites += 1
                tallies[(name, shift)].suites_flagged += hit
    return tallies


def _count(tallies: dict[tuple[str, float], Tally], name: str, shift: float, status: str,
           runs: int) -> None:
    t = tallies.setdefault((name, shift), Tally())
    t.metrics += 1
    t.flagged += status == "regression"
    t.statuses[status] = t.statuses.get(status, 0) + 1
    t.runs += runs


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


Results = list[tuple[Scenario, dict[tuple[str, float], Tally]]]


def _rate(tallies: dict[tuple[str, float], Tally], name: str, shift: float) -> str:
    t = tallies.get((name, shift))
    return pct(t.flagged / t.metrics) if t else "-"


def summary_table(results: Results) -> list[str]:
    """This project's verdicts, one row per cell."""
    plan = SequentialPlan.default(RUNS, N_METRICS)
    lines = [f"| cell (25 metrics, {RUNS} runs a boot) | false alarms per metric / per suite | "
             "detected 1% / 3% / 5% / 10% | oracle power at 3% | inconclusive 0% / 3% | "
             "pass 0% / 3% | runs 0% / 3% |", "|---|---|---|---|---|---|---|"]
    for sc, tallies in results:
        null, three = tallies[(OURS, 0.0)], tallies[(OURS, 0.03)]
        detect = " / ".join(_rate(tallies, OURS, s) for s in ALL_SHIFTS[1:])
        lines.append(
            f"| {sc.name} | {pct(null.flagged / null.metrics)} / "
            f"{pct(null.suites_flagged / null.suites)} | {detect} | "
            f"{pct(oracle_power(sc, plan, plan.max_runs))} | "
            f"{pct(null.share('inconclusive'))} / {pct(three.share('inconclusive'))} | "
            f"{pct(null.share('pass'))} / {pct(three.share('pass'))} | "
            f"{null.runs / null.metrics:.1f} / {three.runs / three.metrics:.1f} |")
    return lines


def anchor_table(sc: Scenario, tallies: dict[tuple[str, float], Tally]) -> list[str]:
    """Every rule on the same draws of one cell."""
    lines = [f"**{sc.name}**", "",
             "| rule | false alarms per metric / per suite | detected 1% / 3% / 5% / 10% | "
             "runs 0% / 3% |", "|---|---|---|---|"]
    for name in (OURS, *ANCHORS):
        null, three = tallies[(name, 0.0)], tallies[(name, 0.03)]
        detect = " / ".join(_rate(tallies, name, s) for s in ALL_SHIFTS[1:])
        lines.append(f"| {name} | {pct(null.flagged / null.metrics)} / "
                     f"{pct(null.suites_flagged / null.suites)} | {detect} | "
                     f"{null.runs / null.metrics:.1f} / {three.runs / three.metrics:.1f} |")
    return [*lines, ""]


def oracle_power(sc: Scenario, plan: SequentialPlan, n: int, effect: float = 0.03) -> float:
    """Power of the best possible test: known variances, one look at plan.alpha_look, n runs
    (averaged over the metrics when their drift differs)."""
    z = statistics.NormalDist().inv_cdf(1 - plan.alpha_look)
    powers = []
    for j in range(N_METRICS):
        var = sc.drift_of(j) ** 2 * (1 + 1 / sc.boots) + sc.cv**2 * (1 / n + 1 / (RUNS * sc.boots))
        powers.append(statistics.NormalDist().cdf(math.log1p(effect) / math.sqrt(var) - z))
    return statistics.fmean(powers)


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


def replay(shift: float = 0.0, baseline_groups: Sequence[int] = (1, 2, 3), current: int = 4,
           ) -> list[tuple[str, dict[int, list[float]], Decision]]:
    """The recorded groups replayed through decide(): baseline groups as boots, the current
    group's runs (scaled by 1 + shift) as this run, in the order they were measured."""
    data = [load_replay(p) for p in sorted(REPLAY_DIR.glob(REPLAY_GLOB))]
    if not data:
        raise FileNotFoundError(f"no {REPLAY_GLOB} in {REPLAY_DIR}")
    sessions = [[BaselineSession(tuple(groups[g]), f"group{g}") for g in baseline_groups]
                for _, groups in data]
    plan = SequentialPlan.default(RUNS, len(data), boot_prior=suite_boot_prior(sessions))
    out = []
    for (algorithm, groups), sess in zip(data, sessions, strict=True):
        stream = [v * (1.0 + shift) for v in groups[current]]
        decision = next(d for n in range(plan.min_runs, plan.max_runs + 1)
                        if (d := decide(sess, stream[:n], "higher", plan)).status != "continue")
        out.append((algorithm, groups, decision))
    return out


def replay_table() -> list[str]:
    """Real samples from this host replayed: unchanged, 10% and 90% slower, against one group."""
    lines = ["| metric | CV within groups | SD of group means | unchanged (3 groups) | "
             "10% slower | 90% slower (AES-NI masked) | unchanged (1 group) |",
             "|---|---|---|---|---|---|---|"]
    rows = zip(replay(), replay(-0.10), replay(-0.90), replay(baseline_groups=(1,)), strict=True)
    for (algorithm, groups, same), (_, _, slower), (_, _, masked), (_, _, one) in rows:
        cvs = [statistics.stdev(v) / statistics.fmean(v) for v in groups.values()]
        means = [statistics.fmean(v) for v in groups.values()]
        lines.append(
            f"| {algorithm} | {pct(min(cvs))}-{pct(max(cvs))} | "
            f"{pct(statistics.stdev(means) / statistics.fmean(means))} | "
            + " | ".join(f"{d.status} ({d.change_pct:+.1f}%, detectable {d.detectable_pct:.1f}%, "
                         f"{d.samples_used} runs)" for d in (same, slower, masked, one))
            + " |")
    return lines


MIXED_TO_1 = (0.0, 0.0025, 0.005, 0.0075, 0.01)
TRADEOFF_CELLS = (
    Scenario(0.01, 0.005, 3),
    Scenario(0.03, 0.01, 3, (0.0,)),
    Scenario(0.01, 0.01, 3, (0.0,)),
    Scenario(0.01, MIXED_TO_1, 3, (0.0,)),
    Scenario(0.003, MIXED_TO_1, 3, (0.0,)),
)
# (runs per boot, prior degrees of freedom floor, cap): the shipped rule first
TRADEOFF_CONFIGS = ((3, PRIOR_DF_FLOOR, PRIOR_DF_CAP), (12, PRIOR_DF_FLOOR, PRIOR_DF_CAP),
                    (20, PRIOR_DF_FLOOR, PRIOR_DF_CAP), (12, 20.0, 50.0), (12, 50.0, 50.0),
                    (20, 50.0, 50.0))


def tradeoff_table(trials: int, seed: int) -> list[str]:
    """Why the detection target and the suite bound cannot both hold with three boots: more
    runs per boot, and trusting the suite-pooled drift more (a higher prior floor), against
    detection in the target's corner cell and suite false alarms where drift differs."""
    global RUNS
    saved = RUNS
    head = ["| runs a boot (budget 2x), prior df floor / cap | detected 3% (CV 1%, drift 0.5%) | "
            "oracle | " + " | ".join(f"suite false alarms, {sc.name}" for sc in
                                     TRADEOFF_CELLS[1:]) + " |",
            "|---" * (3 + len(TRADEOFF_CELLS) - 1) + "|"]
    try:
        for runs, floor, cap in TRADEOFF_CONFIGS:
            RUNS = runs
            cells = [run_cell(sc, trials, seed, floor, cap, anchors=False)
                     for sc in TRADEOFF_CELLS]
            hit = cells[0][(OURS, 0.03)]
            alarms = [c[(OURS, 0.0)] for c in cells[1:]]
            oracle = oracle_power(TRADEOFF_CELLS[0], SequentialPlan.default(runs, N_METRICS),
                                  2 * runs)
            head.append(f"| {runs}, {floor:g} / {cap:g} | {pct(hit.flagged / hit.metrics)} | "
                        f"{pct(oracle)} | "
                        + " | ".join(pct(a.suites_flagged / a.suites) for a in alarms) + " |")
    finally:
        RUNS = saved
    return head


def main() -> None:
    parser = argparse.ArgumentParser(description="verdict simulation over whole suites")
    parser.add_argument("--trials", type=int, default=400, help="suites per cell")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="two cells only")
    parser.add_argument("--replay", action="store_true",
                        help="only replay the samples recorded on the development VM")
    parser.add_argument("--tradeoff", action="store_true",
                        help="only the runs-per-boot and pooling trade-off table")
    parser.add_argument("--boots", choices=("bound", "detect", "all"),
                        help="only the candidate-boots gate (issue 22): suite bound cells, "
                             "detection cells, or both")
    args = parser.parse_args()
    if args.boots:
        from gate_boots import boots_table
        print(f"{args.trials} suites of {N_METRICS} metrics per cell, seed {args.seed}\n")
        print("\n".join(boots_table(args.boots, args.trials, args.seed, ANCHORS)))
        return
    if args.replay:
        print("\n".join(replay_table()))
        return
    if args.tradeoff:
        print(f"{args.trials} suites of {N_METRICS} metrics per cell, seed {args.seed}\n")
        print("\n".join(tradeoff_table(args.trials, args.seed)))
        return
    scenarios = QUICK if args.quick else SCENARIOS
    print(f"{args.trials} suites of {N_METRICS} metrics per cell, seed {args.seed}\n")
    results = [(sc, run_cell(sc, args.trials, args.seed)) for sc in scenarios]
    lines = [*summary_table(results), ""]
    for sc, tallies in results:
        if sc.shifts == ALL_SHIFTS or sc in (SCENARIOS[7],):
            lines += anchor_table(sc, tallies)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
