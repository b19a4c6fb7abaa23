"""The run's bottom line: one tally line that every run ends with, gate mode or not.

    gate: 25 metrics, 10 baseline boots vs 3 candidate boots: 1 regression (aes-128-gcm -6.1%
    [-7.9, -4.3]), 22 pass, 2 inconclusive; 95% of drops >= 3.1% are caught (median metric);
    P(any false alarm) <= 5%

Counts are of the metrics judged in this run (deselected tests are not counted); a regression
is named with its change and interval (what the gate can catch is said in words when no rate
can drop that far: :func:`..words.caught`); while candidate boots are still to come the line says
so (``pending``); while metrics are undecided it says what deciding them would take (the
weakest metric's boots, both sides).  ``sbcbench compare`` prints the same line."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

from ..model import Evidence, Result
from ..words import caught, counted, pct_text, wide

ORDER = ("regression", "implausible", "invalid", "incomparable", "pending", "inconclusive",
         "no-baseline", "improvement", "pass")
FAMILY_RATE_PCT = 5  # Holm at 4% plus the suite-mean test at 1% (judge/family.py)


def _status(result: Result) -> str:
    ev = result.verdict.evidence
    return "pending" if ev is not None and ev.pending else result.verdict.status


def _interval(result: Result) -> str:
    ev = result.verdict.evidence
    if ev is None:
        return result.measurement.display_name
    lo, hi = ev.ci_pct
    if wide(lo, hi):
        bounds = "" if lo is None or hi is None else \
            f" [cannot tell: {pct_text(lo)} .. {pct_text(hi)}]"
    else:
        bounds = f" [{lo:+.1f}, {hi:+.1f}]"
    return f"{result.measurement.display_name} {ev.change_pct:+.1f}%{bounds}"


def _span(values: Sequence[int], word: str) -> str:
    low, high = min(values), max(values)
    shown = str(low) if low == high else f"{low}-{high}"
    return f"{shown} {word}{'s' * (high != 1)}"


def boots(evidence: Sequence[Evidence], saving: bool = False) -> str:
    """``10 baseline boots vs 3 candidate boots`` over the judged metrics; while saving a
    baseline session, ``this session vs 9 baseline boots saved before it`` (no candidate is
    judged; a session saved in a boot the baseline holds counts that boot among them)."""
    if not evidence:
        return "no baseline"
    earlier = _span([e.baseline_boots for e in evidence], "baseline boot")
    if saving:
        return f"this session vs {earlier} saved before it"
    return f"{earlier} vs {_span([e.candidate_boots for e in evidence], 'candidate boot')}"


def _missing(evidence: Sequence[Evidence]) -> str:
    """What deciding the undecided metrics would take (the weakest metric's figures)."""
    undecided = [e for e in evidence if e.boots_needed is not None
                 and e.candidate_boots_needed is not None]
    if not undecided:
        return ""
    worst = max(undecided, key=lambda e: (e.boots_needed or 0) + (e.candidate_boots_needed or 0))
    return (f"; to decide every metric at {worst.min_effect_pct:g}%: {worst.boots_needed} "
            f"baseline and {worst.candidate_boots_needed} candidate boots")


def _catch(evidence: Sequence[Evidence]) -> str:
    values = [e.catch95_pct for e in evidence if e.catch95_pct is not None
              and math.isfinite(e.catch95_pct)]
    if not values:
        return ""
    return f"; {caught(statistics.median(values))} (median metric)"


def tally_line(results: Sequence[Result], suite: str | None = None, label: str = "gate",
               saving: bool = False) -> str:
    """The line; ``suite``: the suite-mean test's finding when it failed the run; ``saving``:
    the run records a baseline session (judged against the boots saved before it, not as a
    candidate)."""
    counts: Counter[str] = Counter(_status(r) for r in results)
    parts = []
    for status in ORDER:
        n = counts.get(status, 0)
        if not n:
            continue
        text = f"{n} {status}" if status != "regression" else counted(n, "regression")
        if status == "regression":
            named = [_interval(r) for r in results if r.verdict.status == status]
            text += f" ({', '.join(named)})"
        parts.append(text)
    evidence = [r.verdict.evidence for r in results if r.verdict.evidence is not None]
    tail = f"; {suite}" if suite else ""
    if evidence:
        tail += _catch(evidence) + _missing(evidence)
        tail += f"; P(any false alarm) <= {FAMILY_RATE_PCT}%"
    return (f"{label}: {counted(len(results), 'metric')}, {boots(evidence, saving)}: "
            f"{', '.join(parts) or 'nothing judged'}{tail}")
