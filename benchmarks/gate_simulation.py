"""How good is the regression gate?  A reproducible simulation against other tools' rules.

    python3 benchmarks/gate_simulation.py [--trials 4000] [--seed 2026] [--markdown]

Draws compile-time-like samples (lower is better) at realistic noise and applies, to the same
draws, this project's gate and the rules of:

- pytest-benchmark ``--benchmark-compare-fail=mean:5%``: fail when the mean is 5% worse than
  the saved run's mean (it compares with one saved run: the latest baseline session);
- pyperf ``compare_to``: pyperf's own two-sample t-test at 95% (``pyperf._utils.is_significant``)
  and slower (its t-score needs equal sample counts, so it gets the latest baseline session);
- asv: slower by a factor over 1.1 and "different": its Mann-Whitney U test at p < 0.002 when the
  sample sizes can reach that, otherwise non-overlapping 99% intervals (a Student-t interval here,
  standing in for asv's Laplace-posterior interval; with factor 1.1 no shift below 10% can fire
  either way);
- the Phoronix Test Suite: any mean move over 2% the bad way.

Prints false-alarm rates (shift 0%) and detection rates (shifts 1%, 3%, 5%).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pyperf._utils import is_significant

from pytest_sbcbench.judge.gate import gate
from pytest_sbcbench.judge.tdist import t_ppf

Rule = Callable[[Sequence[Sequence[float]], Sequence[float]], bool]
SHIFTS = (0.0, 0.01, 0.03, 0.05)


@dataclass(frozen=True)
class Scenario:
    name: str
    cv: float
    n_base: int
    n_cur: int
    sessions: int = 1
    drift: float = 0.0  # sd of a per-session offset (between boots)


SCENARIOS = (
    Scenario("CV 0.6%, 3 vs 3", 0.006, 3, 3),
    Scenario("CV 2%, 3 vs 3", 0.02, 3, 3),
    Scenario("CV 2%, 5 vs 5", 0.02, 5, 5),
    Scenario("CV 0.6%, 2 sessions x 3 vs 3, 0.5% session drift", 0.006, 3, 3, 2, 0.005),
)


def ours(sessions: Sequence[Sequence[float]], current: Sequence[float]) -> bool:
    return gate(sessions, current, "lower").status == "regression"


def pytest_benchmark(sessions: Sequence[Sequence[float]], current: Sequence[float]) -> bool:
    return statistics.fmean(current) > 1.05 * statistics.fmean(sessions[-1])


def pyperf_rule(sessions: Sequence[Sequence[float]], current: Sequence[float]) -> bool:
    base = list(sessions[-1])  # pyperf's t-score needs equal counts: the latest session
    significant, _ = is_significant(base, list(current))
    return bool(significant) and statistics.fmean(current) > statistics.fmean(base)


def _mwu_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Exact two-sided Mann-Whitney p-value by enumerating rank placements (small n)."""
    from itertools import combinations

    u_obs = sum(1 for x in a for y in b if x > y)
    m, n = len(a), len(b)
    extreme = total = 0
    for chosen in combinations(range(m + n), m):
        picked = set(chosen)
        u = sum(1 for i in chosen for j in range(m + n) if j not in picked and i > j)
        total += 1
        if abs(u - m * n / 2) >= abs(u_obs - m * n / 2):
            extreme += 1
    return extreme / total


def _ci99(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = t_ppf(0.995, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def asv_rule(sessions: Sequence[Sequence[float]], current: Sequence[float]) -> bool:
    base = [v for s in sessions for v in s]
    if statistics.median(current) <= 1.1 * statistics.median(base):
        return False
    if 1 / math.comb(len(base) + len(current), min(len(base), len(current))) < 0.002:
        return _mwu_p(base, current) < 0.002
    low_b, high_b = _ci99(base)
    low_c, high_c = _ci99(current)
    return high_b < low_c or high_c < low_b


def phoronix(sessions: Sequence[Sequence[float]], current: Sequence[float]) -> bool:
    base = [v for s in sessions for v in s]
    return statistics.fmean(current) > 1.02 * statistics.fmean(base)


RULES: dict[str, Rule] = {
    "sbcbench gate (this project)": ours,
    "pytest-benchmark mean:5%": pytest_benchmark,
    "pyperf compare_to (t-test 95%)": pyperf_rule,
    "asv (factor 1.1 + interval test)": asv_rule,
    "Phoronix Test Suite (2% move)": phoronix,
}


def draw(rng: random.Random, sc: Scenario, shift: float
         ) -> tuple[list[list[float]], list[float]]:
    def session(n: int, level: float) -> list[float]:
        offset = 1.0 + rng.gauss(0.0, sc.drift)
        return [level * offset * (1.0 + rng.gauss(0.0, sc.cv)) for _ in range(n)]
    base = [session(sc.n_base, 100.0) for _ in range(sc.sessions)]
    return base, session(sc.n_cur, 100.0 * (1.0 + shift))


def simulate(trials: int, seed: int) -> dict[tuple[str, str, float], float]:
    rates: dict[tuple[str, str, float], float] = {}
    for sc in SCENARIOS:
        for shift in SHIFTS:
            rng = random.Random(f"{seed}-{sc.name}-{shift}")
            hits = dict.fromkeys(RULES, 0)
            for _ in range(trials):
                base, cur = draw(rng, sc, shift)
                for name, rule in RULES.items():
                    hits[name] += rule(base, cur)
            for name in RULES:
                rates[(sc.name, name, shift)] = hits[name] / trials
    return rates


def table(rates: dict[tuple[str, str, float], float]) -> list[str]:
    lines = []
    for sc in SCENARIOS:
        lines += [f"**{sc.name}** (share of trials flagged as a regression)", "",
                  "| rule | false alarms (0%) | 1% slower | 3% slower | 5% slower |",
                  "|---|---|---|---|---|"]
        for name in RULES:
            cells = [f"{100 * rates[(sc.name, name, s)]:.1f}%" for s in SHIFTS]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="regression gate simulation")
    parser.add_argument("--trials", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{args.trials} trials per cell, seed {args.seed}\n")
    print("\n".join(table(simulate(args.trials, args.seed))))


if __name__ == "__main__":
    main()
