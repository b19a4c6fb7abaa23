"""Spending one error rate over correlated looks: group-sequential boundaries (Lan and DeMets).

A candidate label is judged at several of its boots, each look with every boot so far.  The
looks are correlated (look 3 holds the boots of looks 1 and 2, and every look shares the
baseline), so splitting the error rate into equal Bonferroni parts wastes most of it.  A
group-sequential design spends it instead: a spending function ``f`` (``f(0) = 0``,
``f(1) = 1``, non-decreasing) says how much of the rate ``alpha`` may have been spent by the
look at information fraction ``t``, and each look's boundary ``b_j`` is the one that makes

    P(Z_1 <= b_1, ..., Z_{j-1} <= b_{j-1}, Z_j > b_j) = alpha (f(t_j) - f(t_{j-1}))

under no change, where ``Z_j`` are the standardized moves at the looks.  Whatever the looks see,
the probability of a false rejection at any of them is ``alpha`` (Lan and DeMets 1983;
Jennison and Turnbull, *Group Sequential Methods*, 2000, ch. 7 and 19).

The statistics have the canonical joint distribution: independent increments of the score
``S_j = Z_j sqrt(I_j)`` with ``Var(S_j - S_{j-1}) = I_j - I_{j-1}``.  For the change of boot
means with k baseline boots and j candidate boots, ``I_j = 1 / (1/k + 1/j)`` (in units of the
boot variance): ``corr(Z_i, Z_j) = sqrt(I_i / I_j)``, the shared baseline included.  The
probabilities are integrated numerically on a grid (the recursion of Armitage, McPherson and
Rowe, Simpson's rule), so the boundaries are exact to about 1e-7 in probability.

The looks judge a Student-t statistic (the boot variance is estimated), so each boundary is
used as its nominal one-sided level ``p_j = 1 - Phi(b_j)``, at the look's own degrees of
freedom (the usual "t with matched nominal level" of group-sequential t-tests).

The spending function is Hwang, Shih and DeCani's,
``f(t) = (1 - exp(-gamma t)) / (1 - exp(-gamma))``: ``gamma = 1`` spends about as Pocock's
design does (evenly), negative values hold the rate back for late looks as O'Brien and
Fleming's does, positive ones spend it early.  :data:`GAMMA` is chosen by the simulation of
``docs/gate.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

GAMMA = 1.0  # Hwang-Shih-DeCani: the shipped gate's choice (docs/gate.md, the simulation)
_POINTS = 161  # grid points per look (odd: Simpson's rule)
_SPAN = 9.0  # the grid reaches this many standard deviations below zero


def hsd(gamma: float) -> Callable[[float], float]:
    """Hwang-Shih-DeCani's spending function with parameter ``gamma`` (0: linear)."""
    if gamma == 0.0:
        return lambda t: min(1.0, max(0.0, t))

    def spend(t: float) -> float:
        t = min(1.0, max(0.0, t))
        return -math.expm1(-gamma * t) / -math.expm1(-gamma)
    return spend


def _upper(x: float) -> float:
    """P(Z > x) for a standard normal Z, accurate in the far tail."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def _z_upper(p: float) -> float:
    """x with P(Z > x) = p (0 < p < 1), by bisection on :func:`_upper`."""
    low, high = -40.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if _upper(mid) > p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2.0


def _simpson(n: int) -> list[float]:
    return [1.0 if i in (0, n - 1) else (4.0 if i % 2 else 2.0) for i in range(n)]


def _crossing(grid: Sequence[float], mass: Sequence[float], edge: float, sd: float) -> float:
    """P(S_j > edge) from the continuation mass of S_{j-1} (values times weights)."""
    return sum(w * _upper((edge - s) / sd) for s, w in zip(grid, mass, strict=True))


def boundaries(informations: Sequence[float], alpha: float,
               spend: Callable[[float], float]) -> tuple[float, ...]:
    """The z boundary of each look (``inf``: the look spends nothing), for one-sided rate
    ``alpha`` spent by ``spend`` over looks at the given increasing ``informations``."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"need 0 < alpha < 1, got {alpha}")
    if not informations or any(b <= a for a, b in itertools.pairwise(informations)) \
            or informations[0] <= 0.0:
        raise ValueError(f"informations must be positive and increasing, got {informations}")
    total = informations[-1]
    out: list[float] = []
    spent = 0.0
    grid: list[float] = []
    mass: list[float] = []  # density times Simpson weight times step, on the grid
    previous = 0.0
    for info in informations:
        target = alpha * spend(info / total)
        step_alpha = target - spent
        var = info - previous
        if not grid:  # the first look: S_1 ~ N(0, I_1)
            b = _z_upper(step_alpha) if step_alpha > 0.0 else math.inf
        elif step_alpha <= 0.0:
            b = math.inf
        else:
            sd = math.sqrt(var)
            low, high = -10.0, 40.0
            for _ in range(100):
                mid = (low + high) / 2.0
                if _crossing(grid, mass, mid * math.sqrt(info), sd) > step_alpha:
                    low = mid
                else:
                    high = mid
                if high - low < 1e-9:
                    break
            b = (low + high) / 2.0
        out.append(b)
        spent = max(spent, target)
        grid, mass = _continue(grid, mass, info, var, b)
        previous = info
    return tuple(out)


def _continue(grid: Sequence[float], mass: Sequence[float], info: float, var: float,
              b: float) -> tuple[list[float], list[float]]:
    """The continuation region's mass of S_j on a new grid below its boundary."""
    sd_total = math.sqrt(info)
    top = b * sd_total if math.isfinite(b) else _SPAN * sd_total
    bottom = -_SPAN * sd_total
    if top <= bottom:
        return [bottom], [0.0]
    n = _POINTS
    h = (top - bottom) / (n - 1)
    points = [bottom + i * h for i in range(n)]
    weights = _simpson(n)
    sd = math.sqrt(var)
    norm = 1.0 / (sd * math.sqrt(2.0 * math.pi))
    if not grid:  # the first look's density, N(0, I_1)
        dens = [norm * math.exp(-0.5 * (y / sd) ** 2) for y in points]
    else:
        dens = [norm * sum(m * math.exp(-0.5 * ((y - s) / sd) ** 2)
                           for s, m in zip(grid, mass, strict=True)) for y in points]
    return points, [d * w * h / 3.0 for d, w in zip(dens, weights, strict=True)]


@lru_cache(maxsize=4096)
def nominal_levels(informations: tuple[float, ...], alpha: float, gamma: float = GAMMA
                   ) -> tuple[float, ...]:
    """Each look's nominal one-sided level (``P(Z > b_j)``; 0: the look rejects nothing)."""
    return tuple(_upper(b) if math.isfinite(b) else 0.0
                 for b in boundaries(informations, alpha, hsd(gamma)))


def boot_informations(k: int, looks: int) -> tuple[float, ...]:
    """The informations of looks at candidate boots 1..``looks`` against ``k`` baseline
    boots, in units of the boot variance: ``1 / (1/k + 1/j)``."""
    if k < 1 or looks < 1:
        raise ValueError(f"need k >= 1 and looks >= 1, got {k}, {looks}")
    return tuple(1.0 / (1.0 / k + 1.0 / j) for j in range(1, looks + 1))


@lru_cache(maxsize=65536)
def boot_level(k: int, c: int, looks: int, alpha: float, gamma: float | None = None) -> float:
    """The nominal one-sided level of the look at candidate boot ``c`` of a label that looks at
    every boot up to ``looks``, against ``k`` baseline boots, spending ``alpha`` in all
    (0 beyond the plan)."""
    if not 1 <= c <= looks:
        return 0.0
    return nominal_levels(boot_informations(k, looks), alpha,
                          GAMMA if gamma is None else gamma)[c - 1]
