"""Error control across the suite, whatever the metrics' drifts (issue 22, item 3).

The family rate of 5% is split: **4%** for Holm's step-down over the m metrics judged in this
run, **1%** for one test on the per-boot means of the whole suite (a kernel-wide slowdown that
no single metric shows beyond its own noise).

A pytest test's outcome is final when it ends, so each test decides at Holm's first step,
``0.04 / m`` (Bonferroni; :func:`per_test_alpha`).  At the end of the run :func:`close_family`
(through :func:`pytest_sbcbench.judge.closing.close_run`) runs Holm's later steps (the i-th
smallest p-value against ``0.04 / (m - i + 1)`` while they hold) and the suite-mean test; both
can add failures, never remove one.

Why the bound holds: Holm controls the family-wise error at 4% under any dependence between
the metrics (boots shared by every metric make them dependent), and each metric's test is the
exact two-sample t on boot means (:mod:`.boot_test`), whatever that metric's own drift, since
nothing is borrowed from other metrics.  The suite-mean test compares per-boot means of the
whole suite, again an exact two-sample t on boots, at 1%.  When nothing changed, P(any failure)
<= 4% + 1% = 5%.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .boot_decide import METRIC_RATE, BootDecision, upper_tail
from .boot_test import BootSession, BootSide, reduce_side, within_variances
from .tdist import t_ppf

SUITE_RATE = 0.01


def per_test_alpha(n_metrics: int, rate: float = METRIC_RATE) -> float:
    """The level each test decides at when it ends: Holm's first step, rate / m."""
    if n_metrics < 1 or not 0 < rate < 1:
        raise ValueError(f"need n_metrics >= 1 and 0 < rate < 1, got {n_metrics}, {rate}")
    return rate / n_metrics


def holm(p_values: Sequence[float], rate: float = METRIC_RATE) -> list[bool]:
    """Holm's step-down: which hypotheses are rejected at family rate ``rate``."""
    m = len(p_values)
    rejected = [False] * m
    for step, i in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        if p_values[i] > rate / (m - step):
            break
        rejected[i] = True
    return rejected


@dataclass(frozen=True)
class SuiteMetric:
    """A metric's boots on both sides, for the suite-mean test (see :func:`suite_metric`)."""

    name: str
    baseline: BootSide
    candidate: BootSide
    better: Literal["higher", "lower"]


def suite_metric(name: str, baseline: Sequence[BootSession], candidate: Sequence[BootSession],
                 better: Literal["higher", "lower"]) -> SuiteMetric:
    """A metric's sessions (each with its boot id) reduced to boots for the suite test."""
    return SuiteMetric(name, reduce_side(baseline), reduce_side(candidate), better)


@dataclass(frozen=True)
class SuiteMean:
    """The suite-mean test: status ``regression``, ``no-regression`` or ``not-run``."""

    status: Literal["regression", "no-regression", "not-run"]
    change_pct: float  # the suite's mean move the bad way (positive: worse)
    ci_pct: tuple[float, float]
    p_value: float
    metrics: int
    baseline_boots: int
    candidate_boots: int
    detail: str


def _boot_means(side: BootSide) -> dict[object, float]:
    return dict(zip(side.keys, side.means, strict=True))


def _suite_within(metrics: Sequence[SuiteMetric], base_order: Sequence[object],
                  cand_order: Sequence[object]) -> tuple[list[float], list[float]]:
    """Per boot, the variance of its suite mean from within the boots (runs and sessions): a
    noisy candidate boot's mean is less sure than the baseline boots' spread says, and the
    test adds that imbalance (never subtracts), as the per-metric test does."""
    base_u = [0.0] * len(base_order)
    cand_u = [0.0] * len(cand_order)
    n = len(metrics) ** 2
    for m in metrics:
        ub, uc = within_variances(m.baseline, m.candidate)
        base_u = _added(base_u, base_order, m.baseline.keys, ub, n)
        cand_u = _added(cand_u, cand_order, m.candidate.keys, uc, n)
    return base_u, cand_u


def _added(total: list[float], order: Sequence[object], keys: Sequence[object],
           values: Sequence[float], n: int) -> list[float]:
    """``total`` with ``values / n`` added boot by boot in ``order`` (the metric's boots in
    the same order, as every metric of a baseline of whole saves has: added in one pass)."""
    if tuple(keys) == tuple(order):
        return [t + v / n for t, v in zip(total, values, strict=True)]
    by_key = dict(zip(keys, values, strict=True))
    return [t + by_key[key] / n for t, key in zip(total, order, strict=True)]


def suite_mean_test(metrics: Sequence[SuiteMetric], rate: float = SUITE_RATE) -> SuiteMean:
    """Two-sample t (k + c - 2 df, one-sided) on the per-boot means of the whole suite: each
    boot's mean over the metrics of its log boot mean, the bad way positive, with the
    within-boot imbalance added (:func:`_suite_within`).  Only boots that every metric has take
    part (boot ids must be known, so boots line up across metrics)."""
    if not metrics:
        return SuiteMean("not-run", 0.0, (0.0, 0.0), 1.0, 0, 0, 0, "suite mean: no metric")
    base_keys = set.intersection(*(set(m.baseline.keys) for m in metrics))
    cand_keys = set.intersection(*(set(m.candidate.keys) for m in metrics)) - base_keys
    base_order = [k for k in metrics[0].baseline.keys if k in base_keys]
    cand_order = [k for k in metrics[0].candidate.keys if k in cand_keys]
    k, c = len(base_order), len(cand_order)
    if k + c - 2 < 1 or not k or not c:
        return SuiteMean("not-run", 0.0, (0.0, 0.0), 1.0, len(metrics), k, c,
                         f"suite mean: not run ({k} baseline and {c} candidate boots shared "
                         "by every metric; it needs boots on both sides and 3 in all)")
    rows = []
    for m in metrics:
        sign = -1.0 if m.better == "higher" else 1.0
        base, cand = _boot_means(m.baseline), _boot_means(m.candidate)
        rows.append([sign * base[b] for b in base_order] + [sign * cand[b] for b in cand_order])
    per_boot = [statistics.fmean(col) for col in zip(*rows, strict=True)]
    b, cn = per_boot[:k], per_boot[k:]
    d = statistics.fmean(cn) - statistics.fmean(b)
    ss = sum((x - statistics.fmean(b)) ** 2 for x in b) + sum(
        (x - statistics.fmean(cn)) ** 2 for x in cn)
    df = float(k + c - 2)
    tau2, scale = ss / df, 1 / k + 1 / c
    u_base, u_cand = _suite_within(metrics, base_order, cand_order)
    mean_u = (sum(u_base) * (k - 1) / k + sum(u_cand) * (c - 1) / c) / df
    imbalance = sum(u_cand) / c**2 + sum(u_base) / k**2 - mean_u * scale
    se = max(math.sqrt(tau2 * scale + max(0.0, imbalance)), 1e-12)
    p = upper_tail(d / se, df)
    half = t_ppf(1 - rate, df) * se
    ci = (100.0 * math.expm1(d - half), 100.0 * math.expm1(d + half))
    status: Literal["regression", "no-regression"] = "regression" if p <= rate else \
        "no-regression"
    detail = (f"suite mean over {len(metrics)} metrics: {100.0 * math.expm1(d):+.2f}% the bad "
              f"way ({100 * (1 - 2 * rate):.0f}% CI {ci[0]:+.2f}% .. {ci[1]:+.2f}%), "
              f"{k} baseline vs {c} candidate boots, p = {p:.3g}")
    if status == "regression":
        detail += f": the whole suite is slower (suite-mean test at {100 * rate:.2g}%)"
    return SuiteMean(status, 100.0 * math.expm1(d), ci, p, len(metrics), k, c, detail)


@dataclass(frozen=True)
class FamilyVerdict:
    """The end of a gate run: every regression (by test, by Holm's later steps) and the
    suite-mean test (the run's tally line: :mod:`pytest_sbcbench.report.tally`)."""

    regressions: tuple[str, ...]
    added: tuple[str, ...]  # made regressions by Holm's later steps, after their test ended
    suite: SuiteMean
    failed: bool


def close_family(decisions: Sequence[tuple[str, BootDecision]], suite: SuiteMean,
                 rate: float = METRIC_RATE) -> FamilyVerdict:
    """Holm's later steps over the final decisions of every metric judged (each p-value as
    its test counted it) and the suite-mean test's result."""
    names = [n for n, _ in decisions]
    rejected = holm([d.p_value for _, d in decisions], rate)
    tested = {n for n, d in decisions if d.status == "regression"}
    added = tuple(n for n, r in zip(names, rejected, strict=True) if r and n not in tested)
    regressions = tuple(n for n, r in zip(names, rejected, strict=True) if r or n in tested)
    failed = bool(regressions) or suite.status == "regression"
    return FamilyVerdict(regressions, added, suite, failed)
