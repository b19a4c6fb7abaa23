"""Each label of a measurement as a person reads it: its boot means, their mean and interval.

A boot is the replicate (the mean of its sessions' runs, in log space, as the gate reduces
it); a label's level is the mean of its boot means, and its interval Student's t on them
(k - 1 degrees of freedom, so a label needs two boots for an interval)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .history_read import LabelPoint, MetricHistory
from .tdist import t_ppf

CONFIDENCE = 0.95


@dataclass(frozen=True)
class LabelLevel:
    label: str
    boot_means: tuple[float, ...]  # in the metric's unit
    mean: float | None  # None: no usable sample under this label
    interval: tuple[float, float] | None
    verdicts: tuple[tuple[str, int], ...]
    kernels: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {"label": self.label, "boots": len(self.boot_means),
                "boot_means": list(self.boot_means), "mean": self.mean,
                "interval": list(self.interval) if self.interval else None,
                "confidence": CONFIDENCE, "verdicts": dict(self.verdicts),
                "kernels": list(self.kernels)}


def level(point: LabelPoint) -> LabelLevel:
    side = point.side
    if side is None:
        return LabelLevel(point.label, (), None, None, point.verdicts, point.kernels)
    logs, mean = side.means, side.mean
    interval = None
    if len(logs) > 1:
        sd = math.sqrt(side.spread_ss / (len(logs) - 1))
        half = t_ppf(0.5 + CONFIDENCE / 2, len(logs) - 1) * sd / math.sqrt(len(logs))
        interval = (math.exp(mean - half), math.exp(mean + half))
    return LabelLevel(point.label, tuple(math.exp(v) for v in logs), math.exp(mean), interval,
                      point.verdicts, point.kernels)


def levels(series: MetricHistory) -> list[LabelLevel]:
    return [level(p) for p in series.points]
