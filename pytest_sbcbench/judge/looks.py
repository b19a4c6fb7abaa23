"""When a metric's plan looks at its samples, what each look may spend, and the power rule's
constants, shared by the candidate-boots decision (:mod:`.boot_decide`) and its hints
(:mod:`.boot_hints`).

* **Regression** is declared only at the regression looks: ``2 x min_runs`` (the confirmation:
  a suspect is re-measured with as many runs again) and ``max_runs`` if later (by default
  ``max_runs = RUN_BUDGET_FACTOR x min_runs``: one look).  Alpha is spent by Bonferroni over
  those looks, so the false-alarm rate holds across the repeated looks whatever their
  correlation.
* **Pass** spends :data:`PASS_ALPHA` evenly over every look from ``min_runs`` to ``max_runs``,
  and needs :data:`POWER` for delta with the noise at its :data:`NOISE_CONFIDENCE` upper
  confidence bound (:func:`noise_upper`).

Power uses the shifted-central-t approximation of the noncentral t: the smallest detectable drop
is ``(t(1 - alpha_look, df) + t(0.8, df)) x SE_up``, with ``SE_up = SE sqrt(df / chi2(0.05, df))``
(the chi-square quantile by the Wilson-Hilferty approximation: within 2% for df >= 4, more
conservative below).
"""

from __future__ import annotations

import math
import statistics

DEFAULT_MIN_EFFECT_PCT = 3.0
RUN_BUDGET_FACTOR = 2  # max_runs defaults to 2 x min_runs (PTS caps its extra runs at 2-4x)
PASS_ALPHA = 0.05  # "no regression of at least delta" at 95% confidence, per metric
POWER = 0.8
NOISE_CONFIDENCE = 0.95  # power is judged at the noise's 95% upper confidence bound


class LookSchedule:
    """When a plan looks and what each look may spend: regressions are confirmed at
    ``2 x min_runs`` and at the budget, Bonferroni over those looks; a pass spends
    :data:`PASS_ALPHA` over every look."""

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


def noise_upper(df: float, confidence: float) -> float:
    """SE_up / SE: sqrt(df / chi2 lower quantile), Wilson-Hilferty for the chi-square."""
    z = statistics.NormalDist().inv_cdf(confidence)
    c = 2.0 / (9.0 * df)
    lower = df * max(1e-6, 1.0 - c - z * math.sqrt(c)) ** 3
    return math.sqrt(df / lower)
