"""Descriptive statistics of run-to-run samples."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ..model import Summary


def summarize(samples: Sequence[float]) -> Summary:
    """n, mean, median, sample standard deviation and coefficient of variation (stdev/mean)."""
    if not samples:
        raise ValueError("no samples to summarize")
    mean = statistics.fmean(samples)
    stdev = statistics.stdev(samples) if len(samples) > 1 else 0.0
    cv = stdev / mean if mean else 0.0
    return Summary(n=len(samples), mean=mean, median=statistics.median(samples), stdev=stdev,
                   cv=cv)
