"""Candidate boots against baseline boots: the honest two-sample test on boot means (issue 22).

Three levels of replication (Kalibera and Jones): boots, sessions within a boot, runs within
a session.  In log space a run is ``mu + B + S + e`` with variances sigma_b^2 (boot),
sigma_s^2 (session within a boot) and sigma_w^2 (run).  A boot is reduced to its mean ``m_i``
(the mean of its session means), whose variance is ``sigma_b^2 + u_i`` with the within-boot
part ``u_i = sigma_s^2 / S_i + sigma_w^2 q_i`` (S_i sessions, q_i = mean of 1/n over them / S_i).

The change is ``d`` = mean of the c candidate boot means minus the mean of the k baseline boot
means, with

    Var(d) = sigma_b^2 (1/c + 1/k) + sum_cand u_i / c^2 + sum_base u_i / k^2
           = tau^2 (1/c + 1/k) + [the within-boot part's imbalance]

where tau^2 is the pooled variance of the boot means about their side's mean (k + c - 2
degrees of freedom, from the boot means alone: nothing is borrowed from other metrics).  When
every boot has the same sessions and runs the bracket is zero and the test is Student's exact
two-sample t; where the bracket is negative (the candidate's boots have more runs, as the last
boot of a run that re-measured does) it is dropped and the test is Student's t on the boot
means with k + c - 2 degrees of freedom (conservative, and no degrees of freedom lost to the
correction); where it is positive (the candidate's boots less sure) it uses the pooled
within-session variance s_w^2 and the session variance, and the degrees of freedom are
Satterthwaite's.

Where the boots leave no degrees of freedom (one baseline boot and one candidate boot), the
between-boot variance is an assumption: the larger of the documented one-boot allowance and the
spread between sessions of one boot (a lower bound of the spread between boots), measured with
its own degrees of freedom; the decision says which.  Where there are degrees of freedom, a
session spread larger than the boots' own estimate still wins (conservative: the boots' df kept).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from .boots import MIN_BOOT_SD_PCT, ONE_BOOT_ALLOWANCE, BaselineSession, BootPrior, logs

# A session's samples and the boot it ran in, on either side (boot None: its own replicate).
BootSession = BaselineSession


@dataclass(frozen=True)
class BootSide:
    """One side (baseline or candidate) reduced to boots, in log space."""

    keys: tuple[object, ...]
    means: tuple[float, ...]  # per boot: mean of its session means
    sessions: tuple[int, ...]  # per boot: S_i
    run_share: tuple[float, ...]  # per boot: q_i = mean(1/n over its sessions) / S_i
    within_ss: float  # runs about their session mean, summed
    within_df: int
    session_ss: float  # session means about their boot mean, summed
    session_df: int
    session_run_share: float  # sum over those sessions of (1 - 1/S) / n (session estimate)
    mean: float  # of the boot means
    spread_ss: float  # boot means about their mean, summed (k - 1 degrees of freedom)

    @property
    def k(self) -> int:
        return len(self.means)

    @cached_property
    def uniform(self) -> bool:
        """Every boot one session, all of the same run count."""
        return self.sessions.count(1) == len(self.sessions) \
            and self.run_share.count(self.run_share[0]) == len(self.run_share)


def runs_dominate(side: BootSide) -> bool:
    """Whether a boot mean's run-to-run part is larger than its boot-to-boot part (at least
    three boots with repeated runs to tell): then more runs a boot, not more boots, are what
    would narrow the verdict.  The boot part is the boot means' spread less the runs' share of
    it (the variance components of :func:`boot_noise`)."""
    if side.k < 3 or side.within_df == 0:
        return False
    s_w2 = side.within_ss / side.within_df
    runs_part = s_w2 * sum(side.run_share) / side.k
    boot_part = max(0.0, side.spread_ss / (side.k - 1) - runs_part)
    return runs_part > boot_part


def boot_key(session: BootSession, index: int) -> object:
    return session.boot_id if session.boot_id is not None else ("session", index)


def spread_of(means: Sequence[float]) -> float:
    """Boot means about their mean, summed (:attr:`BootSide.spread_ss`)."""
    mean = sum(means) / len(means)
    return sum([(m - mean) * (m - mean) for m in means])  # x * x: the same float as x ** 2


def session_stats(samples: Sequence[float]) -> tuple[float, float, int]:
    """One session in log space: its mean, its runs' sum of squares about that mean and its
    run count (what :func:`reduce_stats` takes; a baseline summary stores these three)."""
    r = logs(samples)
    mean = sum(r) / len(r)
    return mean, sum([(v - mean) * (v - mean) for v in r]), len(r)


def reduce_side(sessions: Sequence[BootSession]) -> BootSide:
    """Group sessions by boot (first appearance order) and reduce each boot to its mean."""
    if not sessions:
        raise ValueError("a side needs at least one session")
    stats = [session_stats(s.samples) for s in sessions]
    return reduce_stats([boot_key(s, i) for i, s in enumerate(sessions)],
                        [m for m, _, _ in stats], [q for _, q, _ in stats],
                        [n for _, _, n in stats])


def reduce_stats(keys: Sequence[object], means: Sequence[float], squares: Sequence[float],
                 runs: Sequence[int]) -> BootSide:
    """:func:`reduce_side` of sessions given as columns (per session: its boot key, log mean,
    sum of squares and run count, in order): the same numbers, however they were stored.
    When no boot has two sessions (one save per boot, the usual baseline) the columns are
    the boots, taken whole (a baseline of 1,000 boots is not regrouped session by session)."""
    if not keys:
        raise ValueError("a side needs at least one session")
    if len(set(keys)) == len(keys):
        boots = tuple(means)
        each = (1.0 / runs[0],) * len(runs) if runs.count(runs[0]) == len(runs) \
            else tuple([1.0 / n for n in runs])
        return BootSide(tuple(keys), boots, (1,) * len(boots), each, sum(squares),
                        sum(runs) - len(boots),
                        0.0, 0, 0.0, sum(boots) / len(boots), spread_of(boots))
    groups: dict[object, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    boot_means, counts, shares, within = [], [], [], []
    session_ss = run_share = 0.0
    session_df = 0
    for members in groups.values():
        n_s = len(members)
        if n_s == 1:  # a boot of one session: its mean, as the lines below would give it
            i = members[0]
            boot_means.append(means[i])
            counts.append(1)
            shares.append(1.0 / runs[i])
            within.append(squares[i])
            continue
        session_means = [means[i] for i in members]
        boot_mean = sum(session_means) / n_s
        boot_means.append(boot_mean)
        counts.append(n_s)
        inverse = sum(1.0 / runs[i] for i in members)
        shares.append(inverse / n_s**2)
        within += [squares[i] for i in members]
        if n_s > 1:
            session_ss += sum([(sm - boot_mean) ** 2 for sm in session_means])
            session_df += n_s - 1
            run_share += (1 - 1 / n_s) * inverse
    return BootSide(tuple(groups), tuple(boot_means), tuple(counts), tuple(shares),
                    sum(within), sum(runs) - len(keys), session_ss, session_df, run_share,
                    sum(boot_means) / len(boot_means), spread_of(boot_means))


@dataclass(frozen=True)
class BootNoise:
    """The standard error of d, its degrees of freedom and where the boot variance came from."""

    se: float
    df: float
    between: float  # sigma_b^2 used
    run_var: float  # s_w^2 (0 when no run is repeated)
    session_var: float  # sigma_s^2 estimate (0 when no boot has two sessions)
    source: str  # "boots (k + c boots, df N)", "session spread (...)", "measured: ...",
    # or "assumed: one-boot allowance ..." (what the boot-to-boot drift rests on)
    from_boots: bool = True  # False: no boot-to-boot degrees of freedom (one boot a side)

    def se_for(self, k: int, c: int, runs: int) -> float:
        """SE of d for k baseline and c candidate boots of one session of ``runs`` runs each."""
        per_boot = self.between + self.run_var / runs
        return math.sqrt(per_boot * (1 / k + 1 / c))


def _within(side: BootSide, s_w2: float, s_s2: float) -> list[float]:
    """u_i per boot: the variance of a boot mean around its boot's true level (one value for
    every boot when they all have one session of the same runs, as a baseline of saves of
    one run each has: the same numbers, not worked out 1,000 times)."""
    if side.uniform:
        return [s_s2 + s_w2 * side.run_share[0]] * side.k
    return [s_s2 / n_s + s_w2 * q for n_s, q in zip(side.sessions, side.run_share,
                                                                strict=True)]


def within_variances(base: BootSide, cand: BootSide) -> tuple[list[float], list[float]]:
    """u_i per boot on each side (the variance of a boot mean around its boot's true level),
    each side from its own runs and sessions where it has repeated ones (a noisy candidate is
    not made quiet by a quiet baseline), else from the other side's, in each side's order."""
    def own(side: BootSide, other: BootSide) -> tuple[float, float]:
        src = side if side.within_df else other
        s_w2 = src.within_ss / src.within_df if src.within_df else 0.0
        ses = side if side.session_df else other
        s_s2 = max(0.0, (ses.session_ss - s_w2 * ses.session_run_share) / ses.session_df) \
            if ses.session_df else 0.0
        return s_w2, s_s2
    return _within(base, *own(base, cand)), _within(cand, *own(cand, base))


def _satterthwaite(parts: Sequence[tuple[float, float]]) -> float:
    """Degrees of freedom of a sum of variance estimates (value, df); df 0 parts are exact."""
    total = sum(v for v, _ in parts)
    denominator = sum(v * v / df for v, df in parts if df > 0 and v != 0)
    return total * total / denominator if denominator > 0 else math.inf


def _df_grid(df: float) -> float:
    """Round df down (conservative) to a grid so quantiles are cached."""
    return max(1.0, math.floor(df * 2) / 2) if df < 200 else 200.0


def boot_noise(base: BootSide, cand: BootSide, allowance: BootPrior = ONE_BOOT_ALLOWANCE
               ) -> BootNoise | None:
    """SE and degrees of freedom of d (see the module docstring); None: no variance at all."""
    k, c = base.k, cand.k
    df_w = base.within_df + cand.within_df
    s_w2 = (base.within_ss + cand.within_ss) / df_w if df_w else 0.0
    df_s = base.session_df + cand.session_df
    s_s2 = 0.0
    if df_s:
        ms = (base.session_ss + cand.session_ss) / df_s
        s_s2 = max(0.0, ms - s_w2 * (base.session_run_share + cand.session_run_share) / df_s)
    u_b, u_c = _within(base, s_w2, s_s2), _within(cand, s_w2, s_s2)
    inner = sum(u_c) / c**2 + sum(u_b) / k**2
    scale = 1 / c + 1 / k
    floor_b = math.log1p(MIN_BOOT_SD_PCT / 100.0) ** 2
    df_boot = k + c - 2
    if df_boot == 0:
        if df_w == 0 and df_s == 0:
            return None
        between, df_b, source = _assumed(allowance, s_s2, df_s)
        var = max(between, floor_b) * scale + inner
        sessions = s_s2 * (sum(1 / n for n in cand.sessions) / c**2
                           + sum(1 / n for n in base.sessions) / k**2)
        df = _satterthwaite([(between * scale, df_b), (sessions, df_s),
                             (inner - sessions, df_w)])
        return BootNoise(math.sqrt(var), _df_grid(df), between, s_w2, s_s2, source, False)
    tau2 = (base.spread_ss + cand.spread_ss) / df_boot
    mean_u = (sum(u_b) * (k - 1) / k + sum(u_c) * (c - 1) / c) / df_boot
    a, b = tau2 * scale, inner - mean_u * scale
    between = tau2 - mean_u
    if b <= 0:  # the candidate's boots are as sure as the baseline's or surer (more runs in
        # its last boot): Student's t on the boot means, exact df (the bracket dropped is
        # negative, so this only errs on the safe side; subtracting it cost df, issue 28)
        var, df, source = a, float(df_boot), "boots"
    else:
        var, df, source = a + b, _satterthwaite([(a, df_boot), (b, df_w + df_s)]), "boots"
    if s_s2 > between and s_s2 * scale + inner > var:  # sessions spread more than boots show
        between, var, df, source = s_s2, s_s2 * scale + inner, df_boot, "session spread"
    if var < floor_b * scale + inner:  # a boot never reproduces exactly
        between, var = floor_b, floor_b * scale + inner
    return BootNoise(math.sqrt(var), _df_grid(df), max(between, 0.0), s_w2, s_s2,
                     f"{source} ({k} + {c} boots, df {df_boot})")


def _assumed(allowance: BootPrior, s_s2: float, df_s: int) -> tuple[float, float, str]:
    """The between-boot variance when the boots give none (one boot a side): the one-boot
    allowance, widened to the spread between sessions of one boot where that is larger, always
    at the allowance's degrees of freedom (a spread measured on one boot never decides a change
    on its own, and never with its own few degrees of freedom)."""
    if df_s and s_s2 > allowance.variance:
        sd = 100.0 * math.expm1(math.sqrt(s_s2))
        return s_s2, allowance.df, (f"assumed: the spread between sessions of one boot, "
                                    f"{sd:.2f}% (df {df_s}), above the {allowance.source} "
                                    f"{allowance.sd_pct:.0f}% (df {allowance.df:g})")
    return allowance.variance, allowance.df, (f"assumed: {allowance.source} "
                                              f"{allowance.sd_pct:.0f}% (df {allowance.df:g})")
