"""A first run the data show to be a warm-up: measurably slower than the test's other runs.

The first run of a test can be slow for reasons the later ones are not: a governor still
ramping the clock up, cold caches and page tables, a tool's files read from storage.  Kept, it
widens the run noise and moves the mean the worse way.  It is dropped only when the data show
it: the first run (log scale, the worse way) lies below the others' mean by more than the
one-sided 99% prediction bound of one more run like them,

    mean(others) - first > t(0.99, n_others - 1) x sd(others) x sqrt(1 + 1 / n_others),

so a run no slower than the others is dropped 1% of the time at most (normal runs), whatever
their noise.  It needs two other runs at least (with two, the bound is wide: t(0.99, 1) is
31.8, so only a first run far below two close ones goes); a run slower than the others by less
than the bound stays.  A dropped run is never silent: the result's details keep it
(``warmup``: its value and why) and the test's findings say so (``warm-up``)."""

from __future__ import annotations

import dataclasses
import math
import statistics
from typing import Any

from ..model import Finding, Measurement
from ..words import counted
from .tdist import t_ppf

KEY = "warmup"  # in a result's details: the run dropped and why
CONFIDENCE = 0.99
MIN_OTHERS = 2


def slow_first(m: Measurement) -> str | None:
    """Why ``m``'s first run is a warm-up (see the module docstring), or None."""
    if len(m.samples) < MIN_OTHERS + 1 or any(v <= 0 for v in m.samples):
        return None
    sign = 1.0 if m.better == "higher" else -1.0
    worse = [sign * math.log(v) for v in m.samples]
    first, others = worse[0], worse[1:]
    k = len(others)
    centre, sd = statistics.fmean(others), statistics.stdev(others)
    bound = t_ppf(CONFIDENCE, k - 1) * sd * math.sqrt(1 + 1 / k)
    if not centre - first > bound or first >= min(others):
        return None
    slower = 100.0 * -math.expm1(first - centre)
    return (f"run 1 was {slower:.1f}% slower than the mean of the other "
            f"{counted(k, 'run')}, beyond the {100 * CONFIDENCE:g}% prediction bound of one "
            f"more run like them ({100.0 * -math.expm1(-bound):.1f}%)")


def without_warmup(m: Measurement) -> Measurement:
    """``m`` without its first run when the data show it a warm-up (its per-run details
    with it), the run kept in ``details["warmup"]``; else ``m`` itself."""
    why = slow_first(m)
    if why is None:
        return m
    details: dict[str, Any] = dict(m.details)
    runs = details.get("runs")
    dropped: dict[str, Any] = {"value": m.samples[0], "why": why}
    if isinstance(runs, list) and len(runs) == len(m.samples):
        details["runs"], dropped["run"] = runs[1:], runs[0]
    details[KEY] = dropped
    return dataclasses.replace(m, samples=m.samples[1:], details=details)


def finding(m: Measurement) -> Finding | None:
    """The ``warm-up`` finding of a measurement whose first run was dropped."""
    dropped = m.details.get(KEY)
    if not isinstance(dropped, dict) or "why" not in dropped:
        return None
    return Finding("warm-up", f"{m.display_name}: {dropped['why']}: dropped as a warm-up run "
                              f"(its value {dropped.get('value')!r} kept in the result's "
                              "details)")
