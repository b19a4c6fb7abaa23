"""Sequential verdicts: regression (confirmed), pass, improvement, or inconclusive.

The run loop calls :func:`decide` after the planned minimum of runs and after every further
sample while the status is ``continue``; at ``plan.max_runs`` the status is always final.

Per look, in log space (a halving and a doubling are the same size of move):

* ``d`` = mean of this run minus the mean of the baseline boot means, ``w`` = ``d`` the bad way,
  with standard error and Satterthwaite degrees of freedom from :mod:`.boots` (between-boot
  variance with honest degrees of freedom, this run a new boot).
* **Regression** is declared only at the regression looks: ``2 x min_runs`` (the confirmation:
  a suspect is re-measured with as many runs again) and ``max_runs`` if later (by default
  ``max_runs = 2 x min_runs``: one look).  Alpha is spent by Bonferroni over those looks, so the
  false-alarm rate holds across the repeated looks whatever their correlation.  A move beyond
  the boundary at any other look is a *suspect*: ``continue``.
* **Improvement**: the same boundary the good way, at any look (it passes either way).
* **Pass** means "no regression of at least delta": the one-sided upper confidence bound of
  ``w`` (PASS_ALPHA spent evenly over every look) is below delta, *and* this run could detect a
  drop of delta with at least 80% power even if the noise is as large as its 95% upper
  confidence bound (``detectable_pct <= delta``).  Never pass below 80% power.
* At ``max_runs`` anything else is **inconclusive**, saying what drop this run could have
  detected and how many runs or boots it would take.

Power uses the shifted-central-t approximation of the noncentral t: the smallest detectable drop
is ``(t(1 - alpha_look, df) + t(0.8, df)) x SE_up``, with ``SE_up = SE sqrt(df / chi2(0.05, df))``
(the chi-square quantile by the Wilson-Hilferty approximation: within 2% for df >= 4, more
conservative below).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .boots import (
    ONE_BOOT_ALLOWANCE,
    BaselineSession,
    BootPrior,
    Boots,
    boot_mean_variance,
    group_by_boot,
    logs,
    sum_squares,
)
from .tdist import t_ppf

Status = Literal["continue", "regression", "pass", "improvement", "inconclusive"]
DEFAULT_MIN_EFFECT_PCT = 3.0
RUN_BUDGET_FACTOR = 2  # max_runs defaults to 2 x min_runs (PTS caps its extra runs at 2-4x)
PASS_ALPHA = 0.05  # "no regression of at least delta" at 95% confidence, per metric
POWER = 0.8
NOISE_CONFIDENCE = 0.95  # power is judged at the noise's 95% upper confidence bound
MAX_HINT_RUNS = 100
MAX_HINT_BOOTS = 20

__all__ = ["BaselineSession", "BootPrior", "Decision", "SequentialPlan", "decide", "suite_alpha"]


class LookSchedule:
    """When a plan looks and what each look may spend (shared by :class:`SequentialPlan` and
    the candidate-boots plan): regressions are confirmed at ``2 x min_runs`` and at the budget,
    Bonferroni over those looks; a pass spends :data:`PASS_ALPHA` over every look."""

    min_runs: int
    max_runs: int
    alpha: float

    @property
    def confirm_at(self) -> int:
        return min(2 * self.min_runs, self.max_runs)

    @property
    def regression_looks(self) -> tuple[int, ...]:
        return tuple(sorted({self.confirm_at, self.max_runs}))

    @property
    def alpha_look(self) -> float:
        return self.alpha / len(self.regression_looks)

    @property
    def alpha_pass(self) -> float:
        return PASS_ALPHA / (self.max_runs - self.min_runs + 1)


@dataclass(frozen=True)
class SequentialPlan(LookSchedule):
    """The run budget and error rates of one metric."""

    min_runs: int
    max_runs: int
    min_effect_pct: float = DEFAULT_MIN_EFFECT_PCT
    alpha: float = 0.05 / 25
    boot_prior: BootPrior = ONE_BOOT_ALLOWANCE

    def __post_init__(self) -> None:
        if not 1 <= self.min_runs <= self.max_runs:
            raise ValueError(f"need 1 <= min_runs <= max_runs, got {self}")
        if not 0 < self.alpha < 0.5 or self.min_effect_pct <= 0:
            raise ValueError(f"need 0 < alpha < 0.5 and min_effect_pct > 0, got {self}")

    @classmethod
    def default(cls, min_runs: int, n_metrics: int = 25,
                min_effect_pct: float = DEFAULT_MIN_EFFECT_PCT,
                boot_prior: BootPrior = ONE_BOOT_ALLOWANCE) -> SequentialPlan:
        """min_runs, a budget of RUN_BUDGET_FACTOR x min_runs, suite-adjusted alpha."""
        return cls(min_runs, RUN_BUDGET_FACTOR * min_runs, min_effect_pct,
                   suite_alpha(n_metrics), boot_prior)


@dataclass(frozen=True)
class Decision:
    status: Status
    change_pct: float
    ci_pct: tuple[float, float]
    tolerance_pct: float
    detectable_pct: float
    runs_needed: int | None
    boots_needed: int | None
    baseline_boots: int
    samples_used: int
    df: float
    detail: str


def suite_alpha(n_metrics: int, family_rate: float = 0.05) -> float:
    """Per-metric alpha so that P(an unchanged run fails on any of n metrics) <= family_rate.

    Bonferroni: valid whatever the dependence between metrics (boots shared by every metric
    make them dependent).  Holm would need every metric's p-value at once, which a run that
    decides metric by metric does not have; Benjamini-Hochberg bounds the false discovery rate,
    which equals this bound only when nothing changed."""
    if n_metrics < 1 or not 0 < family_rate < 1:
        raise ValueError(f"need n_metrics >= 1 and 0 < family_rate < 1, got {n_metrics}, "
                         f"{family_rate}")
    return family_rate / n_metrics


@dataclass(frozen=True)
class _Noise:
    se: float
    df: float
    between: float  # sigma_b^2
    within: float  # s_w^2
    boots: Boots

    def se_for(self, n_c: int, k: int) -> float:
        return math.sqrt(self.between * (1 + 1 / k)
                         + self.within * (1 / n_c + self.boots.h / k))


def _df_grid(df: float) -> float:
    """Round df down (conservative) to a grid so quantiles are cached."""
    return max(1.0, math.floor(df * 2) / 2) if df < 60 else 60.0


def _noise(boots: Boots, current: Sequence[float], prior: BootPrior) -> _Noise | None:
    """SE and Satterthwaite df of d: Var(d) = tau^2 (1 + 1/k) + s_w^2 (1/n_c - h)."""
    df_w = boots.df_within + len(current) - 1
    if df_w == 0:
        return None
    s_w2 = (boots.sum_squares + (sum_squares(current) if len(current) > 1 else 0.0)) / df_w
    tau2, df_tau = boot_mean_variance(boots, s_w2, prior)
    a = tau2 * (1 + 1 / boots.k)
    b = s_w2 * (1 / len(current) - boots.h)
    df = (a + b) ** 2 / (a * a / df_tau + b * b / df_w)
    return _Noise(math.sqrt(a + b), _df_grid(df), tau2 - boots.h * s_w2, s_w2, boots)


def _pct(x: float) -> float:
    """A log-space move as a percentage (infinite beyond what a float holds)."""
    return 100.0 * math.expm1(x) if x < 700 else math.inf


def _runs_for(noise: _Noise, k: int, target: float) -> int | None:
    """Runs of this boot for SE <= target with k baseline boots (None: not within 100)."""
    room = target**2 - noise.between * (1 + 1 / k)
    per_run = room / noise.within - noise.boots.h / k if noise.within > 0 else math.inf
    return max(1, math.ceil(1 / per_run)) if per_run > 1 / MAX_HINT_RUNS else None


def _hints(noise: _Noise, plan: SequentialPlan, z: float) -> tuple[int | None, int | None]:
    """What 80% power at delta would take, the variance estimates taken as exact (normal
    quantiles ``z``): runs of this boot against these boots, and, when that exceeds the budget,
    the fewest baseline boots (same runs per boot) that make it possible within max_runs, else
    within 100 runs."""
    target = math.log1p(plan.min_effect_pct / 100.0) / z
    k = noise.boots.k
    runs = _runs_for(noise, k, target)
    if runs is not None and runs <= plan.max_runs:
        return runs, None
    for limit in (plan.max_runs, MAX_HINT_RUNS):
        for j in range(k + 1, MAX_HINT_BOOTS + 1):
            n = _runs_for(noise, j, target)
            if n is not None and n <= limit:
                return (runs if runs is not None else n), j
    return runs, None


def decide(sessions: Sequence[BaselineSession], current: Sequence[float],
           better: Literal["higher", "lower"], plan: SequentialPlan) -> Decision:
    """One look at this run's samples against the baseline; see the module docstring."""
    boots = group_by_boot(sessions)
    cur = logs(current)
    n = len(cur)
    d = statistics.fmean(cur) - boots.grand_mean
    sign = -1.0 if better == "higher" else 1.0
    noise = _noise(boots, cur, plan.boot_prior)
    if noise is None:
        return Decision("inconclusive", _pct(d), (-math.inf, math.inf), math.inf, math.inf,
                        None, None, boots.k, n, 0.0,
                        "inconclusive: no repeated sample anywhere, so no variance to judge by")
    t_r = t_ppf(1 - plan.alpha_look, noise.df)
    t_pass = t_ppf(1 - plan.alpha_pass, noise.df)
    z = (t_r + t_ppf(POWER, noise.df)) * noise_upper(noise.df, NOISE_CONFIDENCE)
    worse, tol = sign * d, t_r * noise.se
    status = _status(worse, tol, worse + t_pass * noise.se, z * noise.se, n, plan)
    normal = statistics.NormalDist()
    runs_needed, boots_needed = _hints(noise, plan, normal.inv_cdf(1 - plan.alpha_look)
                                       + normal.inv_cdf(POWER))
    low, high = sorted((_pct(d - tol), _pct(d + tol)))
    shown = (_bad(tol, sign), _bad(z * noise.se, sign))
    return Decision(status, _pct(d), (low, high), shown[0], shown[1], runs_needed, boots_needed,
                    boots.k, n, noise.df,
                    _detail(status, _pct(d), (low, high), shown, noise, plan, n,
                            (runs_needed, boots_needed)))


def _bad(x: float, sign: float) -> float:
    """A log-space width as a percentage the bad way: a drop for throughput, a rise for time."""
    return abs(_pct(sign * x))


def noise_upper(df: float, confidence: float) -> float:
    """SE_up / SE: sqrt(df / chi2 lower quantile), Wilson-Hilferty for the chi-square."""
    z = statistics.NormalDist().inv_cdf(confidence)
    c = 2.0 / (9.0 * df)
    lower = df * max(1e-6, 1.0 - c - z * math.sqrt(c)) ** 3
    return math.sqrt(df / lower)


def _status(worse: float, tol: float, upper: float, detectable: float, n: int,
            plan: SequentialPlan) -> Status:
    """The decision rule at this look (all values in log space, the bad way positive)."""
    delta = math.log1p(plan.min_effect_pct / 100.0)
    final = n >= plan.max_runs
    if worse > tol:
        return "regression" if n in plan.regression_looks or final else "continue"
    if -worse > tol:
        return "improvement"
    if upper < delta and detectable <= delta:
        return "pass"
    return "inconclusive" if final else "continue"


def _detail(status: Status, change: float, ci: tuple[float, float], shown: tuple[float, float],
            noise: _Noise, plan: SequentialPlan, n: int,
            hints: tuple[int | None, int | None]) -> str:
    """One human line: change, interval, tolerance, power, and what the verdict means."""
    conf = 100.0 * (1 - 2 * plan.alpha_look)
    k = noise.boots.k
    tolerance, detectable = shown
    head = (f"change {change:+.2f}% ({conf:.2f}% CI {ci[0]:+.2f}% .. {ci[1]:+.2f}%), "
            f"tolerance {tolerance:.2f}%, detectable {detectable:.2f}% at "
            f"{POWER:.0%} power (n = {sum(noise.boots.counts)} in {k} boot(s) vs {n}, "
            f"df {noise.df:.1f})")
    tail = {
        "regression": "regression confirmed after re-measuring",
        "continue": "undecided: measuring again",
        "improvement": "faster than the baseline beyond noise: re-baseline with "
                       "--sbc-save-baseline",
        "pass": f"pass: no regression of {plan.min_effect_pct:g}% or more "
                f"({100 * (1 - PASS_ALPHA):.0f}% confidence)",
        "inconclusive": _inconclusive(plan, detectable, hints),
    }[status]
    if k == 1:  # before the verdict, so that the line ends with what it means
        head += (f"; one baseline boot: boot-to-boot drift cannot be separated from the change "
                 f"(allowance {plan.boot_prior.sd_pct:.2f}%: {plan.boot_prior.source}); "
                 f"record at least 3 boots")
    return f"{head}; {tail}"


def _inconclusive(plan: SequentialPlan, detectable: float,
                  hints: tuple[int | None, int | None]) -> str:
    runs, boots = hints
    if boots is not None and runs is not None and runs > plan.max_runs:
        how = f"{boots} baseline boots and about {runs} runs"
    elif boots is not None:
        how = f"{boots} baseline boots at {plan.max_runs} runs"
    elif runs is not None and runs <= plan.max_runs:
        # the variances, taken as exact, would allow it: what is missing is their precision
        how = ("more baseline boots or runs: the noise is estimated with too few degrees of "
               "freedom")
    elif runs is not None:
        how = f"about {runs} runs of this boot (--sbc-max-runs)"
    else:
        how = f"more than {MAX_HINT_BOOTS} baseline boots or a quieter board"
    return (f"inconclusive: this run could only detect a regression of {detectable:.1f}% "
            f"(delta {plan.min_effect_pct:g}%); deciding needs {how}")
