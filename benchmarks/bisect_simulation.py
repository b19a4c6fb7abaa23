"""How often does ``sbcbench bisect`` name the wrong commit?  The whole procedure simulated.

    python3 benchmarks/bisect_simulation.py [--trials 1000] [--seed 2030] [--commits 1024]

Each trial is a linear history of ``--commits`` commits after the good end, one of them (drawn
uniformly) the culprit: from it on, the metric (higher is better) drops by the cell's amount.
5% of the commits (never the ends) fail to build, as an exit 125 (``git bisect skip``).  A boot
of a commit is ``100 x (1 - drop) x (1 + boot offset) x (1 + noise)`` with one offset per boot
(SD "drift") and 3 runs of noise (SD "CV", 1%); every boot of a commit is drawn from the trial's
seed, the commit and the boot's number, so every rule sees the same draws.

The procedure is :class:`pytest_sbcbench.run.bisect.procedure.Procedure`, the one ``sbcbench
bisect`` runs, on a stand-in for git bisect (:class:`LineBisector`: the middle commit of what is
left; a skipped one is replaced by the nearest commit not skipped, alternating sides, where git
uses a pseudo-random offset) and a bench drawing boots (:class:`DrawBench`).  Beside it, on the
same draws and the same stand-in for git:

- **one sample a step** (LKP-tests' and ktest's way): one boot of each end and of each step's
  commit; the commit takes the side of the end its mean is nearer to;
- **Pinpoint's 10 + 10**: 10 boots of each end, 10 of the step's commit; Mann-Whitney U of the
  commit against each end at p < 0.01 (two-sided): different from the good end and not from the
  bad one is bad, and the other way round good; otherwise 10 more boots of the commit, then
  the same test, and still undecided the nearer end (Pinpoint's bisect cannot say "I do not
  know" either).

Per cell: the share of bisects that name the right commit, name a wrong one, and say they could
not decide (counted apart), with 95% intervals, and the median boots a bisect spent.  The
target: right or "could not" in at least 95% of bisects, wrong in at most 5%.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pytest_sbcbench.judge.boot_test import BootSession
from pytest_sbcbench.run.bisect.procedure import (
    BisectPlan,
    Boot,
    Finished,
    Mark,
    Procedure,
    Unmeasurable,
)

RUNS = 3
CV_PCT = 1.0
BUILD_FAILURES = 0.05
CELLS = ((3.0, 0.5), (3.0, 1.0), (5.0, 0.5), (5.0, 1.0))  # (drop %, drift %)
KEY = "metric"


def name(i: int) -> str:
    return f"c{i:05d}"


def index(commit: str) -> int:
    return int(commit[1:])


@dataclass(frozen=True)
class World:
    """One trial: commits 0 (good end) .. n (bad end), the culprit, the draws."""

    seed: str
    commits: int
    culprit: int
    drop_pct: float
    drift_pct: float

    @property
    def isolable(self) -> bool:
        """The culprit and its parent both build (else no bisect can single it out)."""
        return self.builds(self.culprit) and self.builds(self.culprit - 1)

    def builds(self, i: int) -> bool:
        if i in (0, self.commits):
            return True
        return random.Random(f"{self.seed}:build:{i}").random() >= BUILD_FAILURES

    def boot(self, i: int, j: int) -> tuple[float, ...]:
        rng = random.Random(f"{self.seed}:{i}:{j}")
        level = 100.0 * (1 - self.drop_pct / 100 if i >= self.culprit else 1.0)
        offset = 1 + rng.gauss(0.0, self.drift_pct / 100)
        return tuple(level * offset * (1 + rng.gauss(0.0, CV_PCT / 100)) for _ in range(RUNS))

    def mean(self, i: int, j: int) -> float:
        return statistics.fmean(self.boot(i, j))


class LineBisector:
    """git bisect on a linear history (see the module docstring)."""

    def __init__(self, commits: int):
        self.n, self.lo, self.hi = commits, 0, commits
        self.skipped: set[int] = set()

    def count(self) -> int:
        return self.n

    def start(self) -> str | Finished:
        return self._next()

    def mark(self, commit: str, mark: Mark) -> str | Finished:
        i = index(commit)
        if mark == "good":
            self.lo = max(self.lo, i)
        elif mark == "bad":
            self.hi = min(self.hi, i)
        else:
            self.skipped.add(i)
        return self._next()

    def replay(self, marks: Sequence[tuple[str, Mark]]) -> str | Finished:
        self.lo, self.hi, self.skipped = 0, self.n, set()
        after = self._next()
        for commit, mark in marks:
            after = self.mark(commit, mark)
        return after

    def parent(self, commit: str) -> str | None:
        i = index(commit)
        return name(i - 1) if i > 0 else None

    def _next(self) -> str | Finished:
        if self.hi - self.lo <= 1:
            return Finished(name(self.hi))
        mid = (self.lo + self.hi) // 2
        for d in range(self.hi - self.lo):
            for i in (mid - d, mid + d) if d else (mid,):
                if self.lo < i < self.hi and i not in self.skipped:
                    return name(i)
        return Finished(None, tuple(name(i) for i in range(self.lo + 1, self.hi + 1)))


class DrawBench:
    """Boots of the world's commits, numbered per commit (a skip: a failed build)."""

    def __init__(self, world: World):
        self.world = world
        self.taken: dict[int, int] = {}

    def boots(self, commit: str, n: int) -> list[Boot] | Unmeasurable:
        i = index(commit)
        if not self.world.builds(i):
            return Unmeasurable("skip", "build exit 125")
        first = self.taken.get(i, 0)
        self.taken[i] = first + n
        return [Boot({KEY: BootSession(self.world.boot(i, j), f"{i}:{j}")}, {KEY: "higher"})
                for j in range(first, first + n)]


@dataclass(frozen=True)
class Result:
    verdict: str  # right, wrong, could not
    boots: int


def judge(world: World, culprit: str | None) -> str:
    if culprit is None:
        return "could not"
    return "right" if index(culprit) == world.culprit else "wrong"


def ours(world: World, budget: int = 12) -> Result:
    bench = DrawBench(world)
    outcome = Procedure(LineBisector(world.commits), bench, name(0), name(world.commits),
                        BisectPlan(budget=budget)).run()
    return Result(judge(world, outcome.culprit), sum(bench.taken.values()))


StepRule = Callable[[World, int], tuple[str, int]]  # commit index -> (good|bad, boots)


def anchor(world: World, rule: StepRule, ends_boots: int) -> Result:
    bisector, boots = LineBisector(world.commits), 2 * ends_boots
    commit = bisector.start()
    while isinstance(commit, str):
        i = index(commit)
        if not world.builds(i):
            commit = bisector.mark(commit, "skip")
            continue
        mark, spent = rule(world, i)
        boots += spent
        commit = bisector.mark(commit, "good" if mark == "good" else "bad")
    return Result(judge(world, commit.first_bad), boots)


def one_sample(world: World, i: int) -> tuple[str, int]:
    good, bad, x = world.mean(0, 0), world.mean(world.commits, 0), world.mean(i, 0)
    return ("good" if abs(x - good) <= abs(x - bad) else "bad"), 1


def mann_whitney_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p of Mann-Whitney U, normal approximation (no ties in continuous draws)."""
    n1, n2 = len(a), len(b)
    ranked = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    r1 = sum(rank for rank, (_, side) in enumerate(ranked, 1) if side == 0)
    u = r1 - n1 * (n1 + 1) / 2
    z = (u - n1 * n2 / 2) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return math.erfc(abs(z) / math.sqrt(2))


def pinpoint(world: World, i: int) -> tuple[str, int]:
    good = [world.mean(0, j) for j in range(10)]
    bad = [world.mean(world.commits, j) for j in range(10)]
    for n in (10, 20):
        x = [world.mean(i, j) for j in range(n)]
        from_good, from_bad = mann_whitney_p(x, good) < 0.01, mann_whitney_p(x, bad) < 0.01
        if from_good != from_bad:
            return ("bad" if from_good else "good"), n
    mid = statistics.median(x)
    near_good = abs(mid - statistics.median(good)) <= abs(mid - statistics.median(bad))
    return ("good" if near_good else "bad"), 20


RULES: tuple[tuple[str, Callable[[World], Result]], ...] = (
    ("sbcbench bisect", ours),
    ("one sample a step", lambda w: anchor(w, one_sample, 1)),
    ("Pinpoint 10 + 10", lambda w: anchor(w, pinpoint, 10)),
)


def share(k: int, n: int) -> str:
    """k of n as a percentage with its 95% Wilson interval."""
    p, z = k / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.1f}% [{100 * max(0.0, centre - half):.1f}, {100 * (centre + half):.1f}]"


def cell_rows(drop: float, drift: float, trials: int, seed: int, commits: int) -> list[str]:
    rng = random.Random(f"{seed}:{drop}:{drift}")
    worlds = [World(f"{seed}:{drop}:{drift}:{t}", commits, rng.randint(1, commits), drop, drift)
              for t in range(trials)]
    rows = []
    for label, rule in RULES:
        results = [rule(w) for w in worlds]
        count = {v: sum(r.verdict == v for r in results) for v in ("right", "wrong", "could not")}
        ok = count["right"] + count["could not"]
        unbuilt = sum(r.verdict == "could not" and not w.isolable for r, w in
                      zip(results, worlds, strict=True))
        rows.append(f"| {drop:g}% drop, drift {drift:g}% | {label} | "
                    f"{share(count['right'], trials)} | {share(count['wrong'], trials)} | "
                    f"{share(count['could not'], trials)} | {unbuilt} | "
                    f"{share(ok, trials)} | {statistics.median(r.boots for r in results):g} |")
    return rows


def tables(trials: int, seed: int, commits: int,
           cells: Sequence[tuple[float, float]] = CELLS) -> list[str]:
    lines = [f"{trials} bisects per cell over {commits} commits, one culprit, CV {CV_PCT:g}%, "
             f"{RUNS} runs a boot, {100 * BUILD_FAILURES:g}% of commits fail to build, "
             f"seed {seed}", "",
             "| cell | rule | right culprit | wrong culprit | could not decide | of which the "
             "culprit or its parent does not build | right or could not | median boots |",
             "|---|---|---|---|---|---|---|---|"]
    for drop, drift in cells:
        lines += cell_rows(drop, drift, trials, seed, commits)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="sbcbench bisect simulated, beside the "
                                                 "anchors' rules on the same draws")
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2030)
    parser.add_argument("--commits", type=int, default=1024)
    args = parser.parse_args()
    print("\n".join(tables(args.trials, args.seed, args.commits)))


if __name__ == "__main__":
    main()
