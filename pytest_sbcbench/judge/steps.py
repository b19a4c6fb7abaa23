"""Candidate steps in a series: Apache Otava's change-point method (extra ``history``).

Otava (``otava.analysis.compute_change_points``, Fleming et al., "Hunter", ICPE 2023) runs
Matteson and James' E-divisive means on sliding windows (split: every window's candidates at a
relaxed p-value), then merges back the weak ones (a two-sided Student t between neighbouring
segments, the weakest removed until every one holds).  Here it only proposes where a step may
be: the series is one point per label (the mean of its boot means, in log space), so its t
counts labels, not boots.  Whether a step is real is decided by
:func:`pytest_sbcbench.judge.changes.board_steps` with the gate's own test on boot means.

Why Otava, and not MongoDB's ``signal-processing-algorithms``: the latter's 2.1.6 wants Python
3.11 exactly and numpy < 2 (with gevent and structlog), so it installs beside this package on
few systems; Otava is an Apache project, released in 2025, on numpy 2, and its windowed
E-divisive is the method the issue names first."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import SbcBenchError

OTAVA_MISSING = ("sbcbench history changes needs Apache Otava's change-point method: "
                 "pip install 'pytest-sbcbench[history]' (or pip install apache-otava)")
WINDOW = 50  # Otava's default window (labels)
CANDIDATE_P = 0.01  # proposals only: the boot test and Holm decide


class StepsUnavailable(SbcBenchError):
    """Apache Otava is not installed (the message says how to install it)."""


def candidate_indices(values: Sequence[float], window: int = WINDOW,
                      max_pvalue: float = CANDIDATE_P) -> list[int]:
    """Indices where Otava's windowed E-divisive puts a change (the first point after it)."""
    if len(values) < 4:
        return []
    try:
        from otava.analysis import compute_change_points
    except ImportError as exc:
        raise StepsUnavailable(OTAVA_MISSING) from exc
    # a list, not an array: Otava slices its windows only out of a sequence
    points, _ = compute_change_points([float(v) for v in values], window_len=window,
                                      max_pvalue=max_pvalue)
    return sorted(int(p.index) for p in points)
