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
* **Boots** (issue 28): a candidate label's error budget is spent over its boots by the label's
  plan (:class:`LabelPlan`, fixed at the label's first run): ``--sbc-boots N`` looks once, at
  boot N, with the whole budget (the boots before are ``pending``); every other protocol (``auto``,
  boots recorded by hand, ``sbcbench compare`` on the files given) looks at every boot up to a
  budget of B boots and spends 1/B of the budget at each (Bonferroni over the boot looks: the
  bound holds whatever the looks' correlation).  Both alphas above are scaled by the share the
  boot's look spends; a boot beyond the plan spends nothing and decides nothing.

Power uses the shifted-central-t approximation of the noncentral t: the smallest detectable drop
is ``(t(1 - alpha_look, df) + t(0.8, df)) x SE_up``, with ``SE_up = SE sqrt(df / chi2(0.05, df))``
(the chi-square quantile by the Wilson-Hilferty approximation: within 2% for df >= 4, more
conservative below).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from ..workload import DEFAULT_MIN_EFFECT_PCT as DEFAULT_MIN_EFFECT_PCT  # the run's sampling
from ..workload import RUN_BUDGET_FACTOR as RUN_BUDGET_FACTOR

PASS_ALPHA = 0.05  # "no regression of at least delta" at 95% confidence, per metric
POWER = 0.8
NOISE_CONFIDENCE = 0.95  # power is judged at the noise's 95% upper confidence bound


DEFAULT_BOOT_BUDGET = 6  # --sbc-boots-budget: the boots a label may look at (every-boot plans)


@dataclass(frozen=True)
class LabelPlan:
    """A candidate label's boot plan: ``boots`` is the one look (``every_boot`` False:
    ``--sbc-boots N``) or the budget of an every-boot plan (``auto``, hand-recorded boots,
    offline compare)."""

    boots: int = DEFAULT_BOOT_BUDGET
    every_boot: bool = True

    def __post_init__(self) -> None:
        if self.boots < 1:
            raise ValueError(f"a label's plan needs at least one boot, got {self}")

    def share(self, c: int) -> float:
        """The share of the label's error budget its look at candidate boot ``c`` spends."""
        if c > self.boots or c < 1:
            return 0.0
        if self.every_boot:
            return 1.0 / self.boots
        return 1.0 if c == self.boots else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"boots": self.boots, "every_boot": self.every_boot}

    @classmethod
    def from_dict(cls, raw: object) -> LabelPlan | None:
        """A recorded plan, or None where it is not one this version would have written."""
        if not isinstance(raw, dict):
            return None
        boots, every = raw.get("boots"), raw.get("every_boot")
        if isinstance(boots, bool) or not isinstance(boots, int) or not 1 <= boots <= 50 \
                or not isinstance(every, bool):
            return None
        return cls(boots, every)

    def describe(self) -> str:
        if self.every_boot:
            return f"a look at every boot up to {self.boots}, 1/{self.boots} of the budget each"
        return f"one look at boot {self.boots} with the whole budget"


ONE_BOOT = LabelPlan(1, every_boot=False)  # a run judged alone: its one boot, the whole budget
OFFLINE = LabelPlan()  # compare on the files given: no claim in them is trusted


class LookSchedule:
    """When a plan looks and what each look may spend: regressions are confirmed at
    ``2 x min_runs`` and at the budget, Bonferroni over those looks; a pass spends
    :data:`PASS_ALPHA` over every look."""

    min_runs: int
    max_runs: int
    alpha: float
    boots: int
    every_boot: bool

    @property
    def label_plan(self) -> LabelPlan:
        return LabelPlan(self.boots, self.every_boot)

    def boot_share(self, c: int) -> float:
        """The share of the error budget the look at candidate boot ``c`` spends."""
        return self.label_plan.share(c)

    @property
    def confirm_at(self) -> int:
        return min(2 * self.min_runs, self.max_runs)

    @property
    def regression_looks(self) -> tuple[int, ...]:
        return tuple(sorted({self.confirm_at, self.max_runs}))

    @property
    def alpha_look(self) -> float:
        """A regression look's alpha with the whole budget (scale by :meth:`boot_share`)."""
        return self.alpha / len(self.regression_looks)

    @property
    def alpha_pass(self) -> float:
        """A pass look's alpha with the whole budget (scale by :meth:`boot_share`)."""
        return PASS_ALPHA / (self.max_runs - self.min_runs + 1)

    def judged_share(self, c: int) -> float:
        """The share a look at boot ``c`` is judged with: its own, or, for a boot that spends
        nothing (pending, or beyond the plan), the share of the plan's next or last look (what
        its figures would be judged at)."""
        return self.boot_share(c) or self.boot_share(min(max(c, 1), self.boots)) \
            or self.boot_share(self.boots)


BOOT_KURTOSIS = 6.0  # Student-t with 5 df has this excess kurtosis


def pass_df(df: float, boots: int) -> float:
    """The degrees of freedom the pass rule's noise bound is taken at: the variance of a
    variance estimate grows with the boots' excess kurtosis (Box: var(s^2) / sigma^4 =
    2 / df + kurtosis / n), so boots are allowed an excess kurtosis of BOOT_KURTOSIS (a bad
    boot now and then, as heavy as Student-t with 5 df) and the bound is the chi-square one at
    the df that variance implies (issue 28: with normal-theory bounds, t(3) boot offsets made
    20% of unchanged metrics pass where only 80% of 3% drops were caught)."""
    return max(1.0, df / (1.0 + df * BOOT_KURTOSIS / (2.0 * max(boots, 1))))


def noise_upper(df: float, confidence: float) -> float:
    """SE_up / SE: sqrt(df / chi2 lower quantile), Wilson-Hilferty for the chi-square."""
    z = statistics.NormalDist().inv_cdf(confidence)
    c = 2.0 / (9.0 * df)
    lower = df * max(1e-6, 1.0 - c - z * math.sqrt(c)) ** 3
    return math.sqrt(df / lower)
