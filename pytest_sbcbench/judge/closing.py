"""The end of a run: Holm's later steps and the suite-mean test (issue 22, item 3), one function
for pytest (at session finish) and ``sbcbench compare``.

Each test decided at Holm's first step (alpha 4% / m) when it ended; here the final decisions
of every metric judged are taken together: Holm's step-down over their p-values (each p counted
over the look schedule's regression looks, as its test was) can make later regressions, and the
suite-mean test at 1% catches a kernel-wide slowdown no metric shows alone.  Both can only add
failures.  Each look spends its share of the label's error rates (:mod:`.spending`: each
p-value divided by the share its metric's look rejected at, so that Holm counts it at the whole
rate; the suite-mean test at 1% x the smallest share), so the looks of a label's boots
together stay within the budget.  Nothing is
closed at a boot that spends nothing (``--sbc-boots N`` before boot N: the last boot closes
the family)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..model import Result, Verdict
from .baseline import BaselineEntry
from .boot_decide import METRIC_RATE, BootDecision
from .boot_test import reduce_side
from .family import SUITE_RATE, SuiteMean, SuiteMetric, close_family, suite_mean_test
from .verdict import JudgeContext, comparable, final_decision, plan_of

DECIDED = ("pass", "regression", "improvement", "inconclusive")


@dataclass(frozen=True)
class Closing:
    """Which results Holm's later steps made regressions (indices), the suite-mean test, and
    whether the run is still pending (boots to come: nothing closed)."""

    added: tuple[int, ...]
    suite: SuiteMean
    pending: bool
    metrics: int

    @property
    def failed(self) -> bool:
        return bool(self.added) or self.suite.status == "regression"


def _judged(results: Sequence[Result], context: JudgeContext
            ) -> list[tuple[int, BootDecision, SuiteMetric]]:
    out = []
    for i, r in enumerate(results):
        ev = r.verdict.evidence
        if r.verdict.status not in DECIDED or ev is None:
            continue
        found = comparable(r.test, r.measurement, context.baseline, context.board_name,
                           context.machine)
        if not isinstance(found, BaselineEntry):
            continue
        m = r.measurement
        sessions = context.candidate.sessions(r.test, m)
        plan = plan_of(m, context.n_metrics, context.candidate.plan, context.min_effect_pct,
                       context.baseline.tail_weight if context.baseline is not None else 0.0)
        decision = final_decision(found, m, plan, sessions)
        better: Literal["higher", "lower"] = "higher" if m.better == "higher" else "lower"
        # the baseline's boots as reduced once for the entry (BaselineEntry.side)
        side = SuiteMetric(f"{r.test} {m.metric}", found.side, reduce_side(sessions), better)
        looks = len(plan.regression_looks)  # as its test counted it, at its boot's share
        counted = min(1.0, decision.p_value * looks / decision.spent) if decision.spent else 1.0
        out.append((i, dataclasses.replace(decision, p_value=counted), side))
    return out


def close_run(results: Sequence[Result], context: JudgeContext) -> Closing:
    """Holm's later steps and the suite-mean test over the results judged against a baseline."""
    judged = _judged(results, context)
    shares = [d.spent for _, d, _ in judged if d.spent > 0]
    if not shares:
        pending = any(d.status == "pending" for _, d, _ in judged)
        return Closing((), suite_mean_test([]), pending, len(judged))
    suite = suite_mean_test([s for _, _, s in judged], SUITE_RATE * min(shares))
    family = close_family([(str(i), d) for i, d, _ in judged], suite, METRIC_RATE)
    return Closing(tuple(int(i) for i in family.added), suite, False, len(judged))


def with_closing(results: Sequence[Result], closing: Closing) -> list[Result]:
    """The results with Holm's later regressions marked on their verdicts."""
    out = list(results)
    for i in closing.added:
        r = out[i]
        detail = (f"{r.verdict.detail}; regression at Holm's step-down over the "
                  f"{closing.metrics} metrics judged (at the end of the run)")
        out[i] = dataclasses.replace(r, verdict=Verdict("regression", detail,
                                                        r.verdict.evidence))
    return out
