"""One metric's verdict at a look: candidate boots against baseline boots (issues 22, 28).

A candidate label's plan (:class:`.looks.LabelPlan`) says which of its boots are looks and the
share of the error budget each spends: ``--sbc-boots N`` looks at boot N only (the boots before
are ``pending``: their ``min_runs`` are taken and kept, nothing is decided); an every-boot plan
(``auto``, boots recorded by hand, ``sbcbench compare``) looks at every boot up to its budget,
and a metric still undecided at a boot before the budget's last is ``pending`` (the next boot
judges it again).  In a boot that is a look the run loop looks after ``min_runs`` and after each
further run while the status is ``continue`` (both alphas below scaled by the boot's share):

* **regression** when the move the bad way exceeds ``t(1 - alpha_look, df) x SE``, declared
  only at the regression looks of the last boot (``2 x min_runs``, the confirmation, and
  ``max_runs`` if later; alpha split over them by Bonferroni); elsewhere such a move is a
  suspect (``continue``).  ``alpha`` is Holm's first step, ``0.04 / m`` for m metrics judged
  (:mod:`.family` runs Holm's later steps at the end);
* **improvement**: the same boundary the good way;
* **pass**: the one-sided upper bound of the move (PASS_ALPHA over the last boot's looks) is
  below delta *and* the power for delta at this look, with the noise at its 95% upper
  confidence bound, is at least 80% (``detectable_pct <= delta``);
* **inconclusive** otherwise at ``max_runs``, saying what drops the boots can catch now and the
  boots and runs, both sides, that deciding at delta would take.

``catch95_pct``: the drop caught with 95% probability at the estimated noise, the figure
"95% of drops >= x% are caught".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..words import caught, counted
from .boot_hints import BootsNeeded, cached_noise_upper, needed, needed_text
from .boot_test import BootNoise, BootSession, BootSide, boot_noise, reduce_side
from .boots import ONE_BOOT_ALLOWANCE, BootPrior
from .looks import NOISE_CONFIDENCE, PASS_ALPHA, POWER, LookSchedule, pass_df
from .tdist import incomplete_beta, t_ppf

BootStatus = Literal["continue", "pending", "regression", "pass", "improvement", "inconclusive"]
METRIC_RATE = 0.04  # Holm across the metrics judged; the suite-mean test has the other 1%
CATCH = 0.95


@dataclass(frozen=True)
class BootPlan(LookSchedule):
    """A metric's budget in a gate run: runs per boot and planned candidate boots."""

    min_runs: int
    max_runs: int
    boots: int = 1
    min_effect_pct: float = 3.0
    alpha: float = METRIC_RATE / 25
    allowance: BootPrior = ONE_BOOT_ALLOWANCE
    noise_confidence: float = NOISE_CONFIDENCE  # power is judged at this bound of the noise
    every_boot: bool = False  # the label's plan looks at every boot (boots: its budget)
    tail_weight: float = 0.0  # how heavy-tailed the board's baseline boots look (boot_tails)

    def __post_init__(self) -> None:
        if not 1 <= self.min_runs <= self.max_runs or self.boots < 1:
            raise ValueError(f"need 1 <= min_runs <= max_runs and boots >= 1, got {self}")
        if not 0 < self.alpha < 0.5 or self.min_effect_pct <= 0:
            raise ValueError(f"need 0 < alpha < 0.5 and min_effect_pct > 0, got {self}")
        if not 0.0 <= self.tail_weight <= 1.0:
            raise ValueError(f"need 0 <= tail_weight <= 1, got {self}")

    @property
    def delta(self) -> float:
        return math.log1p(self.min_effect_pct / 100.0)


@dataclass(frozen=True)
class BootDecision:
    status: BootStatus
    change_pct: float
    ci_pct: tuple[float, float]
    tolerance_pct: float
    detectable_pct: float  # 80% power, noise at its 95% upper confidence bound
    catch95_pct: float  # 95% power at the estimated noise
    p_value: float  # one-sided, the bad way (1.0 when nothing could be judged)
    df: float
    baseline_boots: int
    candidate_boots: int
    samples_used: int  # runs in the current (last) candidate boot
    noise_source: str
    needed: BootsNeeded | None
    detail: str
    share: float = 1.0  # of the label's error budget this look spent (0: none, pending)
    alpha: float = 0.0  # a regression look's alpha at this boot (the share included)


HEAVY_BOOTS = 2
HEAVY_FIXED_BOOTS = 3  # a fixed plan's looks at up to this many boots take the allowance
HEAVY_DF = 3.0  # one candidate boot of an every-boot plan: boots may be Student-t, 3 df


def heavy_tail(c: int, plan: BootPlan) -> tuple[float, float] | None:
    """The Student-t tail a look at candidate boot ``c`` also allows, as (df, scale): the
    critical value is ``t(1 - alpha, df) / scale`` SEs; None: normal theory alone.

    * An every-boot plan's first HEAVY_BOOTS boots cannot show their own spread: 3 df scaled
      to the boots' SD (a bad boot now and then, as real boards have).
    * A fixed plan (``--sbc-boots N``) keeps normal theory and its full power where the board's
      baseline boots look normal, and as their pooled kurtosis says they are heavy-tailed
      (``tail_weight``, :mod:`.boot_tails`; issue 28) allows, at one candidate boot, Student's
      t with ``HEAVY_DF / tail_weight`` df unscaled (one heavy-tailed boot over an SD that
      heavy-tailed baseline boots tend to understate: simulated, t(3) boots need 9.4 SEs at
      alpha 0.0008 where normal theory says 4.5 and t(3) scaled to unit SD 6.4), and at two,
      ``2 HEAVY_DF / tail_weight`` df scaled to the boots' SD; from three candidate boots on the
      boot means' t holds (4.2 SEs needed, 4.2 given)."""
    if plan.every_boot:
        return (HEAVY_DF, math.sqrt(HEAVY_DF / (HEAVY_DF - 2))) if c <= HEAVY_BOOTS else None
    if plan.tail_weight <= 0.0 or c > HEAVY_FIXED_BOOTS:
        return None
    return max(c * HEAVY_DF, math.floor(2.0 * c * HEAVY_DF / plan.tail_weight) / 2.0), 1.0


def _p_value(x: float, df: float, c: int, plan: BootPlan) -> float:
    """One-sided p of the move (in SEs) the bad way, as the look's critical value counts it."""
    p = upper_tail(x, df)
    heavy = heavy_tail(c, plan)
    if heavy is not None:
        p = max(p, upper_tail(x * heavy[1], heavy[0]))
    return p


def upper_tail(x: float, df: float) -> float:
    """P(T > x) for Student's t, accurate far into the tail."""
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + x * x))
    return tail if x > 0 else 1.0 - tail


def _pct(x: float) -> float:
    return 100.0 * math.expm1(x) if x < 700 else math.inf


def _bad(x: float, sign: float) -> float:
    return abs(_pct(sign * x))


def decide_boots(baseline: Sequence[BootSession], candidate: Sequence[BootSession],
                 better: Literal["higher", "lower"], plan: BootPlan) -> BootDecision:
    """One look: ``candidate`` holds every candidate session so far, the current boot's
    session last (its sample count is this look's n)."""
    if not candidate:
        raise ValueError("a look needs at least one candidate session")
    return decide_sides(reduce_side(baseline), reduce_side(candidate),
                        len(candidate[-1].samples), better, plan)


def decide_sides(base: BootSide, cand: BootSide, n: int, better: Literal["higher", "lower"],
                 plan: BootPlan, explain: bool = True) -> BootDecision:
    """:func:`decide_boots` on sides already reduced (the simulation reuses the baseline's;
    ``explain=False`` leaves out the hints and the line, not the verdict)."""
    d = cand.mean - base.mean
    sign = -1.0 if better == "higher" else 1.0
    noise = boot_noise(base, cand, plan.allowance)
    if noise is None:
        return BootDecision("inconclusive", _pct(d), (-math.inf, math.inf), math.inf, math.inf,
                            math.inf, 1.0, 0.0, base.k, cand.k, n, "none", None,
                            "inconclusive: no repeated sample anywhere, so no variance")
    share, judged = plan.boot_share(cand.k), plan.judged_share(cand.k)
    alpha = plan.alpha_look * judged
    t_r = t_ppf(1 - alpha, noise.df)
    heavy = heavy_tail(cand.k, plan)
    if heavy is not None:
        t_r = max(t_r, t_ppf(1 - alpha, heavy[0]) / heavy[1])
    worse, tol = sign * d, t_r * noise.se
    bound = cached_noise_upper(pass_df(noise.df, base.k + cand.k), plan.noise_confidence)
    detectable = (t_r + t_ppf(POWER, noise.df)) * bound * noise.se
    catch = (t_r + t_ppf(CATCH, noise.df)) * noise.se
    upper = worse + t_ppf(1 - plan.alpha_pass * judged, noise.df) * noise.se
    status = _status(worse, tol, upper, detectable, n, cand.k, share, plan)
    hint = None if not explain or status in ("pass", "regression", "improvement") else needed(
        noise, plan.min_runs, base.k, max(cand.k, 1 if plan.every_boot else plan.boots),
        plan.delta, alpha, plan.noise_confidence)
    low, high = sorted((_pct(d - tol), _pct(d + tol)))
    decision = BootDecision(status, _pct(d), (low, high), _bad(tol, sign),
                            _bad(detectable, sign), _bad(catch, sign),
                            _p_value(worse / noise.se, noise.df, cand.k, plan), noise.df,
                            base.k, cand.k,
                            n, noise.source, hint, "", share, alpha)
    return _with_detail(decision, noise, plan) if explain else decision


def _status(worse: float, tol: float, upper: float, detectable: float, n: int, c: int,
            share: float, plan: BootPlan) -> BootStatus:
    if share == 0.0:  # not a look: a boot before the plan's one look, or beyond the plan
        if c > plan.boots:
            return "inconclusive"
        return "continue" if n < plan.min_runs else "pending"
    final = n >= plan.max_runs
    if worse > tol:
        return "regression" if n in plan.regression_looks or final else "continue"
    if -worse > tol:
        return "improvement"
    if upper < plan.delta and detectable <= plan.delta:
        return "pass"
    if not final:
        return "continue"
    return "inconclusive" if c >= plan.boots else "pending"


def _pending_text(d: BootDecision, plan: BootPlan) -> str:
    if d.candidate_boots > plan.boots:
        return (f"inconclusive: the label's plan ({plan.label_plan.describe()}) is spent at "
                f"candidate boot {d.candidate_boots}: judge a new label")
    if not plan.every_boot:
        return f"pending: candidate boot {d.candidate_boots} of {plan.boots}"
    return (f"pending: undecided at candidate boot {d.candidate_boots} of at most {plan.boots} "
            f"(1/{plan.boots} of the error budget spent a boot): boot again")


def _with_detail(d: BootDecision, noise: BootNoise, plan: BootPlan) -> BootDecision:
    conf = 100.0 * (1 - 2 * d.alpha)
    head = (f"change {d.change_pct:+.2f}% ({conf:.2f}% CI {d.ci_pct[0]:+.2f}% .. "
            f"{d.ci_pct[1]:+.2f}%), tolerance {d.tolerance_pct:.2f}%, "
            f"{counted(d.baseline_boots, 'baseline boot')} vs "
            f"{counted(d.candidate_boots, 'candidate boot')}, "
            f"{counted(d.samples_used, 'run')} in this boot, df {d.df:.1f}, boot drift from "
            f"{noise.source}; {caught(d.catch95_pct)}, "
            f"{POWER:.0%} power at {d.detectable_pct:.1f}%")
    tail = {
        "regression": "regression confirmed" + (" after re-measuring"
                                                 if plan.max_runs > plan.min_runs else ""),
        "continue": "undecided: measuring again",
        "pending": _pending_text(d, plan),
        "improvement": "faster than the baseline beyond noise: if it is meant to stay, "
                       "record a new baseline on the new reference (never on a candidate)",
        "pass": f"pass: no regression of {plan.min_effect_pct:g}% or more "
                f"({100 * (1 - PASS_ALPHA):.0f}% confidence, power >= {POWER:.0%})",
        "inconclusive": f"inconclusive at delta {plan.min_effect_pct:g}%"
        if d.candidate_boots <= plan.boots else _pending_text(d, plan),
    }[d.status]
    heavy = heavy_tail(d.candidate_boots, plan)
    if heavy is not None and not plan.every_boot:
        head += (f", the board's baseline boots look heavy-tailed (tail weight "
                 f"{plan.tail_weight:.2f}): judged with a Student-t tail of {heavy[0]:g} df")
    if d.status in ("pending", "inconclusive", "continue"):
        tail += "; " + needed_text(d.needed, plan.min_effect_pct)
    return BootDecision(**{**d.__dict__, "detail": f"{head}; {tail}"})
