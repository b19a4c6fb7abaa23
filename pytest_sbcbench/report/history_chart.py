"""The chart of ``sbcbench history show`` (extra ``plot``): one measurement across labels.

Each label is a column: its boot means as small dots, the mean of them as a marker with its
95% interval as a bar; a dashed line before each incident's first bad label, named by the
incident.  Linear axis; the title names the board, the measurement, its unit and which way is
better."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import SbcBenchError
from ..judge.changes import Incident
from ..judge.history_read import MetricHistory
from ..judge.label_levels import LabelLevel
from ..model import DISPLAY_UNITS
from .charts import MATPLOTLIB_MISSING, save
from .trace import pyplot


class ChartUnavailable(SbcBenchError):
    """matplotlib is not installed (the message says how to install it)."""


def write(series: MetricHistory, levels: Sequence[LabelLevel], incidents: Sequence[Incident],
          out: Path) -> list[Path]:
    """``<board>-<metric>.png`` and ``.svg`` in ``out``."""
    plt = pyplot()
    if plt is None:
        raise ChartUnavailable(MATPLOTLIB_MISSING)
    shown, factor = DISPLAY_UNITS.get(series.unit, (series.unit, 1.0))
    width = min(16.0, max(6.0, 0.35 * len(levels) + 2))
    fig, ax = plt.subplots(figsize=(width, 4.2))
    try:
        xs = range(len(levels))
        for x, lv in zip(xs, levels, strict=True):
            ax.plot([x] * len(lv.boot_means), [v * factor for v in lv.boot_means], ".",
                    color="tab:gray", markersize=4, zorder=2)
        drawn = [(x, lv) for x, lv in zip(xs, levels, strict=True) if lv.mean is not None]
        ax.errorbar([x for x, _ in drawn], [lv.mean * factor for _, lv in drawn
                                            if lv.mean is not None],
                    yerr=[[(lv.mean - lv.interval[0]) * factor if lv.interval and lv.mean
                           else 0.0 for _, lv in drawn],
                          [(lv.interval[1] - lv.mean) * factor if lv.interval and lv.mean
                           else 0.0 for _, lv in drawn]],
                    fmt="o-", color="tab:blue", markersize=5, capsize=3, linewidth=1,
                    zorder=3)
        labels = [lv.label for lv in levels]
        for incident in incidents:
            if series.name in incident.metrics and incident.first_bad in labels:
                edge = labels.index(incident.first_bad) - 0.5
                ax.axvline(edge, color="tab:red", linestyle="--", linewidth=1)
                ax.annotate(f"{incident.id} ({incident.state})", (edge, 1.0),
                            xycoords=("data", "axes fraction"), ha="left", va="top",
                            color="tab:red", fontsize=8)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=60 if len(labels) > 8 else 0, ha="right"
                           if len(labels) > 8 else "center", fontsize=8)
        ax.set_xlabel("label (in order of first session)")
        ax.set_ylabel(f"{shown} (linear axis)")
        ax.set_title(f"{series.board}: {series.name} ({shown}, {series.better} is better)\n"
                     "boot means (dots), their mean and 95% interval per label (line, bars)",
                     fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        return save(fig, out, f"{series.board}-{series.name}")
    finally:
        plt.close(fig)
