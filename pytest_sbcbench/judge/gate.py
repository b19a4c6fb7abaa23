"""The regression gate: is this run worse than the baseline by more than the noise allows?

Work in log space (ratios).  Let the baseline hold k sessions of n_j samples and this run n_c.

* Within-session variance s_w^2 is pooled over every session and this run
  (df_w = sum of (n - 1)).
* With k >= 2 sessions, the between-session variance is estimated from the session means,
  sigma_b^2 = max(0, var(session means) - s_w^2 / n_harmonic), because a new boot or session
  moves the numbers even when nothing changed.
* The difference d = mean(this run) - mean(session means) has standard error
  SE^2 = s_w^2 (1/n_c + sum(1/n_j)/k^2) + sigma_b^2 (1 + 1/k) (this run is a new session, so
  it carries its own session offset), judged with Student's t at the within-session degrees
  of freedom, so 3 runs against 3 (df 4) get the wide quantile small samples need.  (Welch-
  Satterthwaite degrees of freedom for sigma_b^2 would leave df near 1 with two sessions and
  no power at all, while barely lowering false alarms in the simulation.)
* One-sided by the metric's direction: a regression when the move the bad way exceeds the
  tolerance t(1 - ALPHA, df) * SE, and never below FLOOR_PCT (a documented floor: moves under
  1.5% (as a ratio) are not called regressions, which also guards against a variance
  estimate that came out too small by chance).  The same tolerance the good way is an
  ``improvement``.
* Without any repeated sample (one sample per session, one session) there is no variance to
  measure; a fixed NO_VARIANCE_PCT tolerance applies and the verdict says so.

ALPHA = 0.02 and FLOOR_PCT = 1.5 were chosen with the first benchmarks/gate_simulation.py (see
git history): at CV 0.6% and 3 vs 3 runs they give < 1% false alarms and > 95% detection of a 3%
regression.  This fixed-sample gate is superseded by the sequential, boot-aware verdicts of
:mod:`.sequential` (issue 13), which bound the false alarms of a whole suite; it stays until the
run loop calls :func:`.sequential.decide`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..model import display
from .tdist import t_ppf

ALPHA = 0.02
FLOOR_PCT = 1.5
NO_VARIANCE_PCT = 5.0

GateStatus = Literal["pass", "regression", "improvement"]


@dataclass(frozen=True)
class GateResult:
    status: GateStatus
    change_pct: float
    tolerance_pct: float
    baseline_median: float
    current_median: float
    baseline_n: int
    baseline_sessions: int
    current_n: int
    df: float | None

    def line(self, metric: str, unit: str = "") -> str:
        """The one-line account a failing test prints."""
        df = f", df {self.df:.1f}" if self.df is not None else ", no variance: fixed tolerance"
        base, shown = display(self.baseline_median, unit)
        now, _ = display(self.current_median, unit)
        return (f"{metric}: baseline median {base} {shown}, this run {now} {shown}, "
                f"change {self.change_pct:+.2f}%, tolerance "
                f"{self.tolerance_pct:.2f}% (n = {self.baseline_n} in "
                f"{self.baseline_sessions} session(s) vs {self.current_n}{df})")


def _sum_squares(values: Sequence[float]) -> float:
    mean = statistics.fmean(values)
    return sum((v - mean) ** 2 for v in values)


def standard_error(sessions: Sequence[Sequence[float]], current: Sequence[float]
                   ) -> tuple[float, float] | None:
    """(SE, df) of mean(current) - mean(session means), all in log space; None: no variance."""
    groups = [*sessions, current]
    df_w = sum(len(g) - 1 for g in groups)
    k = len(sessions)
    means = [statistics.fmean(s) for s in sessions]
    if df_w == 0:
        if k < 2:
            return None
        v_m = statistics.variance(means)
        return math.sqrt(v_m * (1 + 1 / k)), float(k - 1)
    s_w2 = sum(_sum_squares(g) for g in groups if len(g) > 1) / df_w
    a = s_w2 * (1 / len(current) + sum(1 / len(s) for s in sessions) / k**2)
    b = 0.0
    if k >= 2:
        n_h = statistics.harmonic_mean([len(s) for s in sessions])
        b = max(0.0, statistics.variance(means) - s_w2 / n_h) * (1 + 1 / k)
    return math.sqrt(a + b), float(df_w)


def gate(sessions: Sequence[Sequence[float]], current: Sequence[float],
         better: Literal["higher", "lower"]) -> GateResult:
    """Judge ``current`` samples against baseline ``sessions`` (all values positive)."""
    if not sessions or not all(sessions) or not current:
        raise ValueError("the gate needs at least one baseline session and one sample")
    if min(min(s) for s in sessions) <= 0 or min(current) <= 0:
        raise ValueError("the gate needs positive values")
    logs = [[math.log(v) for v in s] for s in sessions]
    log_cur = [math.log(v) for v in current]
    d = statistics.fmean(log_cur) - statistics.fmean([statistics.fmean(s) for s in logs])
    change_pct = 100.0 * math.expm1(d)
    found = standard_error(logs, log_cur)
    floor = math.log1p(FLOOR_PCT / 100.0)
    if found is None:
        tol, df = math.log1p(NO_VARIANCE_PCT / 100.0), None
    else:
        se, df = found
        df_rounded = max(0.01, math.floor(df * 100) / 100)  # rounding down is conservative
        tol = max(floor, t_ppf(1 - ALPHA, df_rounded) * se)
    # Decide in log space (a halving and a doubling are the same size of move); report the
    # tolerance as a percentage in the bad direction of this metric.
    worse = -d if better == "higher" else d
    tolerance_pct = 100.0 * (-math.expm1(-tol) if better == "higher" else math.expm1(tol))
    status: GateStatus = "pass"
    if worse > tol:
        status = "regression"
    elif -worse > tol:
        status = "improvement"
    return GateResult(status, change_pct, tolerance_pct,
                      statistics.median([v for s in sessions for v in s]),
                      statistics.median(current), sum(len(s) for s in sessions), len(sessions),
                      len(current), df)
