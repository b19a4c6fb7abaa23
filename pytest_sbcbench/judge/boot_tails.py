"""How heavy-tailed a board's boots are, from its baseline (issue 28).

A fixed boot plan (``--sbc-boots N``: one look, the whole budget) judges the candidate's boots
by normal theory, which is what gives it a plain two-sample t's power; with heavy-tailed boot
offsets (a bad boot now and then, Student-t with 3 df in the simulation) one candidate boot
cannot be told from a regression and the bound fails (18% of unchanged suites at one boot).
Heavy tails are a property of the board, shared by every metric its boots move, so they are
estimated from the baseline's boots pooled over all its metrics: each metric's boot means are
standardized by their own mean and spread (divisor k) and the fourth moments pooled,

    b2 = sum_j k_j b2_j / sum_j k_j,   b2_j = mean_i z_ij^4  (metrics with k_j >= 5 boots)

against what normal boots give, ``E b2_j = 3 (k - 1) / (k + 1)`` and ``var b2_j = 24 k (k - 2)
(k - 3) / ((k + 1)^2 (k + 3) (k + 5))`` (the metrics taken as independent: offsets shared by
every metric make the estimate noisier both ways).  Its z-score becomes the weight
:func:`tail_weight` in [0, 1]: 0 at or below the normal mean, 1 from :data:`FULL_Z` standard
errors above it, and the fixed plan's look takes a Student-t tail of ``HEAVY_DF / weight``
degrees of freedom scaled to the boots' SD (:func:`.boot_decide.heavy_tail`)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from .boot_test import BootSide

MIN_BOOTS = 5  # a metric's kurtosis needs this many baseline boots to say anything
FULL_Z = 3.0  # standard errors above the normal mean where the whole heavy allowance applies


def _normal_moments(k: int) -> tuple[float, float]:
    """Mean and variance of b2 (divisor k) of k normal values."""
    mean = 3.0 * (k - 1) / (k + 1)
    var = 24.0 * k * (k - 2) * (k - 3) / ((k + 1) ** 2 * (k + 3) * (k + 5))
    return mean, var


def kurtosis_z(sides: Iterable[BootSide]) -> float | None:
    """The pooled kurtosis of the sides' standardized boot means, as a z-score against normal
    boots (None: no metric has MIN_BOOTS boots with a spread)."""
    total = expected = variance = 0.0
    for side in sides:
        k = side.k
        if k < MIN_BOOTS or side.spread_ss <= 0.0:
            continue
        v = side.spread_ss / k
        b2 = sum([(m - side.mean) ** 4 for m in side.means]) / (k * v * v)
        mean, var = _normal_moments(k)
        total += k * b2
        expected += k * mean
        variance += k * k * var
    if variance <= 0.0:
        return None
    return (total - expected) / math.sqrt(variance)


def tail_weight(sides: Iterable[BootSide]) -> float:
    """0 (boots look normal, or too few to tell) to 1 (clearly heavy-tailed)."""
    z = kurtosis_z(sides)
    return 0.0 if z is None else min(1.0, max(0.0, z / FULL_Z))
