"""What ``--sbc-save-baseline`` says it saved (issue 22, item 11): the boots each saved metric's
baseline now has, the findings that touched this boot's numbers (other load on the machine,
throttling), and the drop the baseline can now catch against the recommended candidate
(:data:`CANDIDATE_BOOTS` boots of the same runs)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from ..model import Result
from .baseline import Baseline
from .boot_test import reduce_side, spread_of
from .boots import BaselineSession
from .disturbance import contaminating
from .family import per_test_alpha
from .quarantine import CONTAMINATION, contamination
from .tdist import t_ppf

RECOMMENDED_BOOTS = 10  # the gate's design point (benchmarks/gate_boots.py): 10 x 3 runs ...
CANDIDATE_BOOTS = 3  # ... against 3 candidate boots of 3 runs
TOUCHING = CONTAMINATION  # the kinds a save quarantines (judge/quarantine.py)


def boot_means(baseline: Baseline | None, r: Result, boot_id: str | None
               ) -> tuple[float, ...]:
    """The boot means (:attr:`.boot_test.BootSide.means`) of ``r``'s baseline entry with this
    session added: when this session's boot is new to the entry, its mean appended to those
    of the side the judge reduced already (:attr:`.baseline.BaselineEntry.side`, the same
    numbers :func:`reduce_side` of them all gives), so a save's notes cost a metric its boots,
    not its stored sessions (they reduced every one again)."""
    m = r.measurement
    entry = baseline.entry(r.test, m.metric, m.identity) if baseline else None
    mine = BaselineSession(tuple(m.samples), boot_id)
    if entry is None:
        return reduce_side([mine]).means
    side = entry.side
    if boot_id is not None and boot_id in side.keys:  # this boot has sessions there already
        return entry.columns.means_with(m.samples, boot_id)
    return (*side.means, *reduce_side([mine]).means)


def boots_note(baseline: Baseline | None, saved: Sequence[Result], boot_id: str | None,
               means: Sequence[Sequence[float]] | None = None) -> str:
    """How many boots the saved metrics' baselines now have (this session included),
    recommending at least RECOMMENDED_BOOTS (``means``: each saved result's
    :func:`boot_means`, when the caller has them)."""
    counts = [len(m) for m in (means if means is not None else
                               [boot_means(baseline, r, boot_id) for r in saved])]
    if not counts:
        return "baseline boots: nothing saved"
    low, high = min(counts), max(counts)
    span = str(low) if low == high else f"{low} to {high}"
    text = f"baseline boots: {span} per metric (this session's boot: {boot_id or 'unknown'})"
    if low < RECOMMENDED_BOOTS:
        text += (f"; record at least {RECOMMENDED_BOOTS} boots (reboot, then "
                 "--sbc-save-baseline again, or --sbc-boots on a lab board): with fewer, "
                 "boot-to-boot drift is measured so loosely that small drops stay inconclusive")
    return text


def catch_pct(sessions: Sequence[BaselineSession], n_metrics: int) -> float | None:
    """The drop (percent) caught with 95% probability by CANDIDATE_BOOTS candidate boots like
    the baseline's, at Holm's first step over ``n_metrics``; None below two baseline boots."""
    return catch_of(reduce_side(sessions).means, n_metrics)


def catch_of(means: Sequence[float], n_metrics: int) -> float | None:
    """:func:`catch_pct` of a baseline whose boot means are ``means``."""
    k, c = len(means), CANDIDATE_BOOTS
    if k < 2:
        return None
    df = float(k + c - 2)
    tau2 = spread_of(means) / (k - 1)
    se = math.sqrt(tau2 * (1 / k + 1 / c))
    z = t_ppf(1 - per_test_alpha(n_metrics) / 2, df) + t_ppf(0.95, df)
    return 100.0 * -math.expm1(-z * se)


def catch_note(baseline: Baseline | None, saved: Sequence[Result], boot_id: str | None,
               means: Sequence[Sequence[float]] | None = None) -> str:
    """What the baseline with this session can catch (``means``: as :func:`boots_note`)."""
    every = means if means is not None else [boot_means(baseline, r, boot_id) for r in saved]
    figures = [catch_of(m, len(saved)) for m in every]
    known = [f for f in figures if f is not None]
    if not known:
        return ("baseline can catch: nothing yet (two or more boots measure the drift between "
                "boots)")
    return (f"baseline can catch: 95% of drops >= {statistics.median(known):.1f}% (median "
            f"metric; worst {max(known):.1f}%) against {CANDIDATE_BOOTS} candidate boots of "
            "the same runs")


def findings_note(saved: Sequence[Result]) -> str | None:
    """The findings that touched the numbers saved as used (accepted with ``--sbc-accept``:
    unaccepted, they are quarantined), each kind once with the tests it touched."""
    touched: dict[str, list[str]] = {}
    for r in saved:
        for kind, _ in contaminating(r.measurement, r.telemetry, contamination(r)):
            touched.setdefault(kind, []).append(r.measurement.display_name)
    if not touched:
        return None
    parts = [f"{kind} in {len(names)} of {len(saved)} ({', '.join(dict.fromkeys(names))})"
             for kind, names in touched.items()]
    return (f"saved with findings: {'; '.join(parts)}: accepted (--sbc-accept), so this boot's "
            "disturbed numbers widen the tolerance every later verdict uses; rerun the boot on "
            "a quiet machine if you can")


def beside_note(saved: Sequence[Result]) -> str | None:
    """The CPU-time rates saved as used although other work ran beside them
    (:mod:`.disturbance`: it does not move them), or None."""
    kept = [r.measurement.display_name for r in saved
            if len(contaminating(r.measurement, r.telemetry, contamination(r)))
            < len(contamination(r))]
    if not kept:
        return None
    return (f"saved beside other work: {len(kept)} of {len(saved)} "
            f"({', '.join(dict.fromkeys(kept))}) are rates per second of the tool's own CPU "
            "time, which time-sharing does not move: kept, the load recorded with them")
