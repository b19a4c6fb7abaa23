"""The step rule of a noise-aware bisect (issue 30): good, bad or undecided, with its error bound.

Every decision is the project's candidate-boots test (:mod:`.boot_test`: Student's two-sample t
on boot means, the boot-to-boot drift measured, sessions as a level), asked one-sided:

* the **ends**: is the bad end worse than the good end?  Their difference D (log space) sizes
  every later step: the boots a step needs so that a commit of either end is told from the
  other end with 90% power at the step's alpha;
* a **step**: a commit is *bad* when it is worse than the good end beyond the step's tolerance
  and not better than the bad end beyond it; *good* the other way round; anything else
  (neither, or both: a commit between the ends) is *undecided*.  A commit of the good end is
  called bad only when the good-end test errs (probability <= alpha), and so on the other side;
* the **pair**: before a culprit is named, its parent and it are measured afresh against each
  other; *confirmed* when the culprit is worse than its parent beyond the tolerance, *refuted*
  when the move's upper bound is below half of D (the pair does not hold the drop).

The error of the whole bisect is split by Bonferroni (:class:`AlphaPlan`): the ends, the
ceil(log2 N) steps a clean bisect of N commits takes, the confirmation and a reserve, each
``total / (steps + 3)``; every test beyond those (a step past the expected count, as skips make;
the re-judging of a refuted culprit and the confirmation after it) spends half of what is left
of the reserve (:meth:`AlphaPlan.reserve`), so the shares sum to at most ``total`` however many
tests there are.
Inside a step (or the ends, or the pair) the looks taken while boots are added split the share
again (:func:`per_look`).  A still-undecided step is a skip, never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .boot_test import BootNoise, BootSession, boot_noise, reduce_side
from .tdist import t_ppf

Better = Literal["higher", "lower"]
StepStatus = Literal["good", "bad", "undecided"]
EndsStatus = Literal["differ", "improved", "undecided"]
PairStatus = Literal["confirmed", "refuted", "undecided"]
TOTAL_ALPHA = 0.05
POWER = 0.90  # a step is sized so that either end is told from the other with this power


def expected_steps(commits: int) -> int:
    """The steps a clean bisect of ``commits`` candidates takes: ceil(log2 N), at least 1."""
    return max(1, math.ceil(math.log2(max(commits, 2))))


@dataclass(frozen=True)
class AlphaPlan:
    """The bisect's error split over its tests (Bonferroni; see the module docstring)."""

    total: float
    steps: int  # expected steps

    @property
    def unit(self) -> float:
        return self.total / (self.steps + 3)

    @property
    def ends(self) -> float:
        return self.unit

    @property
    def confirm(self) -> float:
        return self.unit

    def reserve(self, draw: int) -> float:
        """The ``draw``-th test (1-based) paid from the reserve: half of what is left of it."""
        if draw < 1:
            raise ValueError(f"reserve draws count from 1, got {draw}")
        return self.unit * 0.5**draw


def looks(start: int, budget: int, add: int) -> int:
    """The looks a test takes from ``start`` boots, ``add`` more at a time, up to ``budget``."""
    return 1 + max(0, math.ceil((budget - start) / max(add, 1)))


def per_look(alpha: float, start: int, budget: int, add: int) -> float:
    return alpha / looks(start, budget, add)


@dataclass(frozen=True)
class Compared:
    """One one-sided comparison: how far ``b`` is worse than ``a`` (log space) and its noise."""

    worse: float  # mean of b minus mean of a, signed so that positive is worse
    noise: BootNoise | None
    k_a: int
    k_b: int
    sign: float = 1.0  # worse = sign x change (-1 when higher is better)

    def tolerance(self, alpha: float) -> float:
        if self.noise is None:
            return math.inf
        return t_ppf(1 - alpha, self.noise.df) * self.noise.se

    def interval_pct(self, alpha: float) -> tuple[float, float]:
        """The two-sided (1 - 2 alpha) interval of the change of b against a, in % (the raw
        change, higher or lower, not the 'worse' sign)."""
        tol = self.tolerance(alpha)
        return (_pct(self.change - tol), _pct(self.change + tol))

    @property
    def change(self) -> float:
        return self.worse * self.sign


def _pct(x: float) -> float:
    return 100.0 * math.expm1(x) if math.isfinite(x) and x < 700 else math.copysign(math.inf, x)


def compare(a: Sequence[BootSession], b: Sequence[BootSession], better: Better) -> Compared:
    """``b`` against ``a`` by the candidate-boots test (a as the baseline side)."""
    side_a, side_b = reduce_side(a), reduce_side(b)
    sign = -1.0 if better == "higher" else 1.0  # worse = sign x (log change)
    return Compared(sign * (side_b.mean - side_a.mean), boot_noise(side_a, side_b),
                    side_a.k, side_b.k, sign)


@dataclass(frozen=True)
class _Effect:
    """A judged move between two sets of boots, at the alpha it was judged at."""

    effect: Compared
    alpha: float

    @property
    def effect_pct(self) -> float:
        return _pct(self.effect.change)

    @property
    def interval_pct(self) -> tuple[float, float]:
        return self.effect.interval_pct(self.alpha)


@dataclass(frozen=True)
class EndsVerdict(_Effect):
    """The bad end against the good end."""

    status: EndsStatus


def judge_ends(good: Sequence[BootSession], bad: Sequence[BootSession], better: Better,
               alpha: float) -> EndsVerdict:
    """Is the bad end worse than the good end (one-sided at ``alpha``)?"""
    effect = compare(good, bad, better)
    tol = effect.tolerance(alpha)
    status: EndsStatus = ("differ" if effect.worse > tol else
                          "improved" if -effect.worse > tol else "undecided")
    return EndsVerdict(effect, alpha, status)


@dataclass(frozen=True)
class StepVerdict:
    status: StepStatus
    from_good: Compared  # the commit against the good end
    from_bad: Compared  # the commit against the bad end (positive worse: the commit is worse)
    alpha: float

    @property
    def position(self) -> float:
        """Where the commit sits: 0 at the good end, 1 at the bad end."""
        span = self.from_good.worse - self.from_bad.worse
        return self.from_good.worse / span if span else math.nan

    @property
    def change_pct(self) -> float:
        return _pct(self.from_good.change)

    def detail(self) -> str:
        lo, hi = self.from_good.interval_pct(self.alpha)
        why = {"good": "better than the bad end beyond noise, not worse than the good end",
               "bad": "worse than the good end beyond noise, not better than the bad end",
               "undecided": ("between the ends" if self._both() else
                             "neither end ruled out")}[self.status]
        return (f"{self.change_pct:+.2f}% against the good end "
                f"[{lo:+.2f}, {hi:+.2f}], {self.position:.2f} of the way to the bad end, "
                f"{self.from_good.k_b} boots, alpha {self.alpha:.2g}: {why}")

    def _both(self) -> bool:
        return (self.from_good.worse > self.from_good.tolerance(self.alpha)
                and -self.from_bad.worse > self.from_bad.tolerance(self.alpha))


def judge_step(good: Sequence[BootSession], bad: Sequence[BootSession],
               commit: Sequence[BootSession], better: Better, alpha: float) -> StepVerdict:
    """One look at a step's commit against both ends, each one-sided at ``alpha``."""
    g, b = compare(good, commit, better), compare(bad, commit, better)
    worse_than_good = g.worse > g.tolerance(alpha)
    better_than_bad = -b.worse > b.tolerance(alpha)
    status: StepStatus = "undecided"
    if worse_than_good and not better_than_bad:
        status = "bad"
    elif better_than_bad and not worse_than_good:
        status = "good"
    return StepVerdict(status, g, b, alpha)


@dataclass(frozen=True)
class PairVerdict(_Effect):
    """The culprit against its parent."""

    status: PairStatus


def judge_pair(parent: Sequence[BootSession], culprit: Sequence[BootSession], better: Better,
               ends_worse: float, alpha: float) -> PairVerdict:
    """The culprit against its parent: confirmed when worse beyond the tolerance; refuted when
    the move's one-sided upper bound is below half of the ends' difference ``ends_worse``."""
    effect = compare(parent, culprit, better)
    tol = effect.tolerance(alpha)
    status: PairStatus = "undecided"
    if effect.worse > tol:
        status = "confirmed"
    elif effect.worse + tol < ends_worse / 2:
        status = "refuted"
    return PairVerdict(effect, alpha, status)


def step_alpha(unit: float, start: int, budget: int) -> float:
    """A step's alpha per look when it starts with ``start`` boots and adds half as many at a
    time up to ``budget``."""
    return per_look(unit, start, budget, step_add(start))


def step_add(start: int) -> int:
    return max(1, math.ceil(start / 2))


def boots_for_step(ends: EndsVerdict, k_good: int, k_bad: int, runs: int, unit: float,
                   budget: int) -> int:
    """The fewest boots of a commit that tell it from the far end with :data:`POWER` at the
    first look's alpha (:func:`step_alpha` of ``unit``; the noise of the ends' test, their
    difference D), and never fewer than the ends had (the fewer of the two); ``budget`` when
    none does.

    The floor is for boards whose boots swing: the power sum above trusts the ends' estimate
    of the boot-to-boot spread, and a step of 2 boots against ends of 3 decides on 3 degrees of
    freedom, where two slow boots of a good commit passed for bad on an emulated board (seen on
    the QEMU lab, -36.4% [-58.3, -3.2] on 2 boots; its confirmation refuted it)."""
    noise, d = ends.effect.noise, abs(ends.effect.worse)
    if noise is None or d == 0:
        return budget
    k = min(k_good, k_bad)
    for c in range(min(k, budget), budget + 1):
        df, alpha = max(1.0, k + c - 2.0), step_alpha(unit, c, budget)
        if (t_ppf(1 - alpha, df) + t_ppf(POWER, df)) * noise.se_for(k, c, runs) <= d:
            return c
    return budget
