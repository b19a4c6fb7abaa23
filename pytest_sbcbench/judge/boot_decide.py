"""One metric's verdict at a look: candidate boots against baseline boots.

A candidate label's plan (:class:`.looks.LabelPlan`) says which of its boots are looks:
``--sbc-boots N`` looks at boot N only (the boots before are ``pending``: their ``min_runs``
are taken and kept, nothing is decided); an every-boot plan (``auto``, boots recorded by hand,
``sbcbench compare``) looks at every boot up to its budget, spending its error rates over the
looks as a group-sequential design does (:mod:`.spending`), and a metric still undecided at a
boot before the budget's last is ``pending`` (the next boot judges it again).  In a boot that
is a look, the run loop looks after ``min_runs`` and after each further run while the status
is ``continue``:

* **regression** when the move the bad way exceeds ``t(1 - level, df) x SE``, declared only at
  the regression looks of the boot (``2 x min_runs``, the confirmation, and ``max_runs`` if
  later); elsewhere such a move is a suspect (``continue``).  The level is the look's share of
  the metric's rate, Holm's first step ``0.04 / m`` for m metrics judged (:mod:`.family` runs
  Holm's later steps at the end);
* **improvement**: the same boundary the good way;
* **pass** (non-inferiority): the one-sided upper confidence bound of the drop,
  ``move + t(1 - level_pass, df) x SE``, is below delta, at a per-metric confidence of 95%
  spent over the label's looks as the regression rate is.  Power is reported ("95% of drops
  >= x% are caught"), never a condition of ``pass``;
* **inconclusive** otherwise at ``max_runs``, saying the bound the drop has now and the boots
  and runs, both sides, that would let an unchanged metric pass.

With one boot a side the boots measure no drift: it is assumed (the one-boot allowance,
:mod:`.boots`), only a change far beyond it is called, and nothing passes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..words import caught, counted, interval_text, pct_text
from .boot_hints import BootsNeeded, needed, needed_text
from .boot_test import BootNoise, BootSession, BootSide, boot_noise, reduce_side
from .boots import ONE_BOOT_ALLOWANCE, BootPrior
from .looks import PASS_RATE, POWER, LookSchedule
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
    detectable_pct: float  # the drop caught with 80% power at the estimated noise
    catch95_pct: float  # 95% power at the estimated noise
    p_value: float  # one-sided, the bad way (1.0 when nothing could be judged)
    df: float
    baseline_boots: int
    candidate_boots: int
    samples_used: int  # runs in the current (last) candidate boot
    noise_source: str
    needed: BootsNeeded | None
    detail: str
    spent: float = 1.0  # this look's level over the metric's rate (0: not a look, pending)
    alpha: float = 0.0  # a regression look's one-sided level at this boot
    upper_pct: float = math.inf  # the pass bound: the drop's upper confidence bound (+: worse)


HEAVY_BOOTS = 3  # looks at up to this many candidate boots take the board's tail allowance
HEAVY_DF = 3.0  # a clearly heavy-tailed board's boots: Student-t with 3 df


def heavy_tail(c: int, plan: BootPlan) -> tuple[float, float] | None:
    """The Student-t tail a look at candidate boot ``c`` also allows, as (df, scale): the
    critical value is ``t(1 - level, df) / scale`` SEs; None: normal theory alone.

    Normal theory, and its full power, where the board's baseline boots look normal; as
    their pooled kurtosis says they are heavy-tailed (``tail_weight``, :mod:`.boot_tails`),
    the looks at the first :data:`HEAVY_BOOTS` candidate boots allow Student's t with
    ``c x HEAVY_DF / tail_weight`` degrees of freedom (at least ``c x HEAVY_DF``), unscaled:
    one heavy-tailed boot over an SD that heavy-tailed baseline boots tend to understate
    (simulated, t(3) boots need 9.4 SEs at a level of 0.0008 where normal theory says 4.5 and
    t(3) scaled to unit SD 6.4); from four candidate boots on, the boot means' t holds.  The
    same for every plan: a fixed plan's one look and each look of an every-boot plan."""
    if plan.tail_weight <= 0.0 or c > HEAVY_BOOTS:
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
    spent = plan.spent(cand.k, base.k)
    alpha = plan.regression_level(cand.k, base.k)
    t_r = _critical(alpha, noise.df, cand.k, plan)
    worse, tol = sign * d, t_r * noise.se
    t_p = _critical(plan.pass_level(cand.k, base.k), noise.df, cand.k, plan, heavy_too=False)
    upper = worse + t_p * noise.se
    detectable = (t_r + t_ppf(POWER, noise.df)) * noise.se
    catch = (t_r + t_ppf(CATCH, noise.df)) * noise.se
    status = _status(worse, tol, upper, n, cand.k, spent, plan, noise)
    spent_plan = cand.k > plan.boots  # a new label is what would decide it
    hint = None if not explain or spent_plan or status in ("pass", "regression", "improvement") \
        else needed(
        noise, plan.min_runs, base.k, max(cand.k, 1 if plan.every_boot else plan.boots),
        plan.delta, lambda k, c: plan.pass_level(c, k))
    low, high = sorted((_pct(d - tol), _pct(d + tol)))
    decision = BootDecision(status, _pct(d), (low, high), _bad(tol, sign),
                            _bad(detectable, sign), _bad(catch, sign),
                            _p_value(worse / noise.se, noise.df, cand.k, plan), noise.df,
                            base.k, cand.k, n, noise.source, hint, "", spent, alpha,
                            _bad(upper, 1.0) if upper > 0 else -_bad(upper, 1.0))
    return _with_detail(decision, noise, plan) if explain else decision


def _critical(level: float, df: float, c: int, plan: BootPlan, heavy_too: bool = True
              ) -> float:
    """The critical value in SEs of a one-sided test at ``level``: Student's t at ``df``, or
    the heavier tail the look allows (:func:`heavy_tail`)."""
    if level <= 0.0:
        return math.inf
    t = t_ppf(1 - level, df)
    heavy = heavy_tail(c, plan) if heavy_too else None
    if heavy is not None:
        t = max(t, t_ppf(1 - level, heavy[0]) / heavy[1])
    return t


def _status(worse: float, tol: float, upper: float, n: int, c: int, spent: float,
            plan: BootPlan, noise: BootNoise) -> BootStatus:
    if spent == 0.0:  # not a look: a boot before the plan's one look, or beyond the plan
        if c > plan.boots:
            return "inconclusive"
        return "continue" if n < plan.min_runs else "pending"
    final = n >= plan.max_runs
    if worse > tol:
        return "regression" if n in plan.regression_looks or final else "continue"
    if -worse > tol:
        return "improvement"
    if upper < plan.delta and noise.from_boots:  # a pass needs the drift measured
        return "pass"
    if not final:
        return "continue"
    return "inconclusive" if c >= plan.boots or not plan.every_boot else "pending"


def _pending_text(d: BootDecision, plan: BootPlan) -> str:
    if d.candidate_boots > plan.boots:
        return (f"inconclusive: the label's plan ({plan.label_plan.describe()}) is spent at "
                f"candidate boot {d.candidate_boots}: judge a new label")
    if not plan.every_boot:
        return f"pending: candidate boot {d.candidate_boots} of {plan.boots}"
    return (f"pending: undecided at candidate boot {d.candidate_boots} of at most {plan.boots}"
            ": boot again")


def _with_detail(d: BootDecision, noise: BootNoise, plan: BootPlan) -> BootDecision:
    conf = 100.0 * (1 - 2 * d.alpha) if d.alpha > 0 else 0.0
    head = (f"change {pct_text(d.change_pct)} ({interval_text(*d.ci_pct, conf)}), "
            f"{counted(d.baseline_boots, 'baseline boot')} vs "
            f"{counted(d.candidate_boots, 'candidate boot')}, "
            f"{counted(d.samples_used, 'run')} in this boot, df {d.df:.1f}, boot drift from "
            f"{noise.source}; {caught(d.catch95_pct)}")
    bound = (f"the drop is at most {max(d.upper_pct, 0.0):.2f}% "
             f"({100 * (1 - PASS_RATE):.0f}% confidence)")
    tail = {
        "regression": "regression confirmed" + (" after re-measuring"
                                                 if plan.max_runs > plan.min_runs else ""),
        "continue": "undecided: measuring again",
        "pending": _pending_text(d, plan),
        "improvement": "faster than the baseline beyond noise: if it is meant to stay, "
                       "record a new baseline on the new reference (never on a candidate)",
        "pass": f"pass: {bound}, under {plan.min_effect_pct:g}%",
        "inconclusive": f"inconclusive at delta {plan.min_effect_pct:g}%"
        if d.candidate_boots <= plan.boots else _pending_text(d, plan),
    }[d.status]
    if not noise.from_boots and d.status in ("inconclusive", "pending"):
        tail += ("; one boot a side does not measure the drift between boots (it is assumed, "
                 "so only a change far beyond it is called): record more boots")
    heavy = heavy_tail(d.candidate_boots, plan)
    if heavy is not None:
        head += (f", the board's baseline boots look heavy-tailed (tail weight "
                 f"{plan.tail_weight:.2f}): judged with a Student-t tail of {heavy[0]:g} df")
    if d.status in ("pending", "inconclusive", "continue"):
        if d.status != "continue" and math.isfinite(d.upper_pct) and noise.from_boots:
            tail += f" ({bound})"
        if d.candidate_boots <= plan.boots:
            tail += "; " + needed_text(d.needed, plan.min_effect_pct)
    return BootDecision(**{**d.__dict__, "detail": f"{head}; {tail}"})
