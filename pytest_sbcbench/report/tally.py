"""The run's bottom line: one tally line that every run ends with, gate mode or not.

    gate: 25 metrics, 3 baseline boots vs 1 candidate boot: 1 regression (aes-128-gcm -6.1%
    [-7.9, -4.3]), 22 pass, 2 inconclusive; drops >= 3.1% detectable (80% power) ...

Counts are of the metrics judged in this run (deselected tests are not counted); a regression
is named with its change and interval; the detectable drop is the largest of the judged
metrics' (the weakest metric decides what the run as a whole could catch)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..model import Result

ORDER = ("regression", "implausible", "invalid", "incomparable", "inconclusive", "no-baseline",
         "improvement", "pass")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _interval(result: Result) -> str:
    ev = result.verdict.evidence
    if ev is None:
        return result.measurement.display_name
    lo, hi = ev.ci_pct
    bounds = "" if lo is None or hi is None else f" [{lo:+.1f}, {hi:+.1f}]"
    return f"{result.measurement.display_name} {ev.change_pct:+.1f}%{bounds}"


def boots(results: Sequence[Result]) -> str:
    """The baseline's boots behind the judged metrics (the fewest any metric had)."""
    counts = [r.verdict.evidence.baseline_boots for r in results if r.verdict.evidence]
    if not counts:
        return "no baseline"
    low, high = min(counts), max(counts)
    shown = str(low) if low == high else f"{low}-{high}"
    return f"{shown} baseline boot{'s' * (high != 1)}"


def tally_line(results: Sequence[Result], candidate_boots: int = 1, label: str = "gate"
               ) -> str:
    counts: Counter[str] = Counter(r.verdict.status for r in results)
    parts = []
    for status in ORDER:
        n = counts.get(status, 0)
        if not n:
            continue
        text = f"{n} {status}" if status != "regression" else _plural(n, "regression")
        if status == "regression":
            named = [_interval(r) for r in results if r.verdict.status == status]
            text += f" ({', '.join(named)})"
        parts.append(text)
    detectable = [r.verdict.evidence.detectable_pct for r in results
                  if r.verdict.evidence and r.verdict.evidence.detectable_pct is not None]
    tail = (f"; drops >= {max(detectable):.1f}% detectable (80% power)" if detectable else "")
    return (f"{label}: {_plural(len(results), 'metric')}, {boots(results)} vs "
            f"{_plural(candidate_boots, 'candidate boot')}: {', '.join(parts) or 'nothing judged'}"
            f"{tail}")
