"""Boots as the unit of replication: variance components of a baseline, in log space.

A new kernel or BSP always means a new boot, and a boot moves the numbers even when nothing
changed (memory placement, firmware and clock state, the page cache).  So a baseline's sessions
are grouped by boot id (sessions of the same boot are one replicate), and the variance of
d = "this run's mean minus the mean of the k baseline boot means" is

    Var(d) = sigma_b^2 (1 + 1/k) + sigma_w^2 (1/n_c + h/k)
           = tau^2 (1 + 1/k) + sigma_w^2 (1/n_c - h)

with h the mean of 1/n_i over the boots, n_c the samples of this run (a new boot, so it carries
a boot offset of its own), sigma_w^2 the within-boot and sigma_b^2 the between-boot variance,
and tau^2 = sigma_b^2 + h sigma_w^2 the variance of one boot's mean, which the spread of the
boot means measures directly (k - 1 degrees of freedom).

tau^2 is estimated like limma's moderated variances (Smyth 2004): a prior with d0 degrees of
freedom combined with this metric's own boots, so its degrees of freedom are d0 + k - 1, never
the within-boot ones.  The prior is the suite's between-boot variance pooled over every metric
of the baseline (:func:`suite_boot_prior`; d0 = the pooled degrees of freedom, capped) or, when
no metric has two boots, the documented one-boot allowance :data:`ONE_BOOT_ALLOWANCE`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .tdist import digamma, trigamma, trigamma_inverse

# The one-boot allowance: a between-boot SD assumed when the baseline has a single boot.
# Measured evidence (tests/data/this_machine/gate_replay_*.source.txt): on the development VM,
# four groups of openssl runs 12 minutes apart in ONE boot moved their group means by 0.3% to
# 4.5% (SD of the group means) on a host shared with other jobs, and the issue's own replay on a
# busy 2-core host gave two-session false alarms consistent with drift of 1% or more.  No
# published reboot-to-reboot figure for SBCs was found.  1.0% with 4 degrees of freedom is the
# simulation's design point (drift up to 1%), not a measurement of any board: a one-boot
# baseline cannot separate drift from the change, and every verdict against one says so.
ONE_BOOT_SD_PCT = 1.0
ONE_BOOT_DF = 4.0
# A suite-pooled prior counts at most this many degrees of freedom: metrics do not all drift
# alike, so the pooled value is a prior for each metric, not its truth.
PRIOR_DF_CAP = 30.0
# ... and at least this many: estimated from 2-df variances, d0 is noisy (for 25 metrics that
# drift alike, 3 in 10 suites estimate d0 < 10 by chance), and below 6 a 10% regression at
# CV 1% would go unconfirmed in about 1 suite in 15 (benchmarks/gate_simulation.py).
PRIOR_DF_FLOOR = 6.0
# Never judge with a between-boot SD below this (0.1%): a boot never reproduces exactly.
MIN_BOOT_SD_PCT = 0.1


@dataclass(frozen=True)
class BaselineSession:
    """One stored session: its samples and the boot it ran in (None: unknown, own replicate)."""

    samples: tuple[float, ...]
    boot_id: str | None = None


@dataclass(frozen=True)
class BootPrior:
    """A between-boot standard deviation (percent, log scale) and its degrees of freedom."""

    sd_pct: float
    df: float
    source: str

    @property
    def variance(self) -> float:
        return math.log1p(self.sd_pct / 100.0) ** 2


ONE_BOOT_ALLOWANCE = BootPrior(ONE_BOOT_SD_PCT, ONE_BOOT_DF, "one-boot allowance")


@dataclass(frozen=True)
class Boots:
    """A baseline reduced to one replicate per boot, in log space."""

    means: tuple[float, ...]
    counts: tuple[int, ...]
    sum_squares: float  # within-boot sum of squared deviations, all boots
    df_within: int

    @property
    def k(self) -> int:
        return len(self.means)

    @property
    def h(self) -> float:
        """Mean of 1/n over the boots: the within-boot share of a boot mean's variance."""
        return statistics.fmean(1.0 / n for n in self.counts)

    @property
    def grand_mean(self) -> float:
        return statistics.fmean(self.means)


def logs(values: Sequence[float]) -> list[float]:
    """Natural logs of positive finite samples; anything else is a ValueError."""
    if not values or not all(math.isfinite(v) and v > 0 for v in values):
        raise ValueError(f"samples must be non-empty, finite and positive, got {list(values)}")
    return [math.log(v) for v in values]


def sum_squares(values: Sequence[float]) -> float:
    mean = statistics.fmean(values)
    return sum((v - mean) ** 2 for v in values)


def group_by_boot(sessions: Sequence[BaselineSession]) -> Boots:
    """Merge sessions of the same boot into one replicate (unknown boot: its own replicate)."""
    if not sessions:
        raise ValueError("a baseline needs at least one session")
    groups: dict[object, list[float]] = {}
    for i, s in enumerate(sessions):
        key: object = s.boot_id if s.boot_id is not None else ("session", i)
        groups.setdefault(key, []).extend(logs(s.samples))
    values = list(groups.values())
    return Boots(tuple(statistics.fmean(g) for g in values), tuple(len(g) for g in values),
                 sum(sum_squares(g) for g in values), sum(len(g) - 1 for g in values))


def boot_mean_variance(boots: Boots, s_w2: float, prior: BootPrior) -> tuple[float, float]:
    """(tau^2, degrees of freedom): the variance of one baseline boot's mean.

    tau^2 = sigma_b^2 + h sigma_w^2 is what the spread of the boot means measures directly (a
    scaled chi-square with k - 1 degrees of freedom), so it is the quantity moderated: the
    prior tau_0^2 = s0^2 + h s_w^2 with d0 degrees of freedom, combined with var(boot means).
    Never below MIN_BOOT_SD_PCT^2 + h s_w^2 (a boot never reproduces exactly)."""
    floor = math.log1p(MIN_BOOT_SD_PCT / 100.0) ** 2 + boots.h * s_w2
    prior_tau2 = prior.variance + boots.h * s_w2
    if boots.k < 2:
        return max(floor, prior_tau2), prior.df
    df = prior.df + boots.k - 1
    value = (prior.df * prior_tau2 + (boots.k - 1) * statistics.variance(boots.means)) / df
    return max(floor, value), df


def suite_boot_prior(metrics: Sequence[Sequence[BaselineSession]],
                     df_floor: float = PRIOR_DF_FLOOR, df_cap: float = PRIOR_DF_CAP) -> BootPrior:
    """The between-boot variance pooled over every metric with two or more boots.

    Computed from the baseline alone (before this run), so a regression in this run cannot
    widen its own tolerance.  Its degrees of freedom d0 say how far one metric may lean on the
    others, estimated as limma's ``fitFDist`` does (Smyth 2004, section 6.2): the log ratios
    log(var(boot means) / (pooled sigma_b^2 + h s_w^2)) of metrics that drift alike scatter only
    as chi-square sampling makes them (trigamma(d/2), plus the within part's own sampling);
    extra scatter means the metrics drift differently, and d0 = 2 trigamma^-1(extra), kept
    between ``df_floor`` and ``df_cap`` (PRIOR_DF_FLOOR, PRIOR_DF_CAP) and never above the pooled
    degrees of freedom; with fewer than three such metrics heterogeneity cannot be judged and d0
    is the floor.  Falls back to :data:`ONE_BOOT_ALLOWANCE` when no metric has two boots.  (The
    simulation's ``--tradeoff`` varies the floor: a higher one trusts the pooled value more.)"""
    found = [b for b in (group_by_boot(s) for s in metrics) if b.k >= 2 and b.df_within > 0]
    if not found:
        return ONE_BOOT_ALLOWANCE
    within = [b.h * b.sum_squares / b.df_within for b in found]
    spread = [statistics.variance(b.means) for b in found]
    df = sum(b.k - 1 for b in found)
    pooled = max(math.log1p(MIN_BOOT_SD_PCT / 100.0) ** 2,
                 sum((b.k - 1) * (v - w) for b, v, w in zip(found, spread, within, strict=True))
                 / df)
    d0 = min(df, df_cap, max(df_floor, _prior_df(found, spread, within, pooled, df_floor)))
    return BootPrior(100.0 * math.expm1(math.sqrt(pooled)), d0,
                     f"suite-pooled prior ({len(found)} metrics, {d0:.1f} df)")


def _prior_df(found: Sequence[Boots], spread: Sequence[float], within: Sequence[float],
              pooled: float, floor: float) -> float:
    """limma's moment estimate of the prior degrees of freedom (inf: no extra scatter)."""
    if len(found) < 3:
        return floor
    half = [(b.k - 1) / 2 for b in found]
    e = [math.log(max(v, 1e-300) / (pooled + w)) - digamma(a) + math.log(a)
         for v, w, a in zip(spread, within, half, strict=True)]
    # chi-square scatter of var(boot means), plus that of the estimated within part (delta
    # method: log(pooled + w) moves with log(w) in proportion w / (pooled + w))
    expected = [trigamma(a) + (w / (pooled + w)) ** 2 * trigamma(b.df_within / 2)
                for a, w, b in zip(half, within, found, strict=True)]
    extra = statistics.variance(e) - statistics.fmean(expected)
    return 2.0 * trigamma_inverse(extra) if extra > 0 else math.inf
