"""What a board's baseline measured of its own noise, per metric (``sbcbench baseline list``):
how much the runs of one session vary (the run CV) and how much the boots move beyond that
(the boot drift), from the used sessions the judge reads (each entry's boots, with no session
read again).  Together they say why a metric decides or not: a metric whose boots drift 5%
cannot be decided at 3% by any number of runs a boot, one whose runs vary 5% can by taking
more of them.

* **run CV**: the pooled SD of runs about their session's mean (log scale), as a percentage,
  with its degrees of freedom (runs less sessions);
* **boot drift**: the SD of the boot means beyond what their runs and sessions explain (the
  variance of the boot means less their within-boot part, :func:`.boot_test.within_variances`'s
  u_i on average, never below 0), with the boots it rests on; with one boot there is none to
  measure, and the spread between that boot's sessions is said instead."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .baseline import Baseline, BaselineEntry
from .boot_test import BootSide, within_variances


@dataclass(frozen=True)
class MetricNoise:
    test: str
    metric: str
    run_cv_pct: float | None
    run_df: int
    boot_drift_pct: float | None
    boots: int
    session_spread_pct: float | None  # between the sessions of one boot, when boots have two
    session_df: int

    def as_dict(self) -> dict[str, Any]:
        return {"test": self.test, "metric": self.metric, "run_cv_pct": self.run_cv_pct,
                "run_df": self.run_df, "boot_drift_pct": self.boot_drift_pct,
                "boots": self.boots, "session_spread_pct": self.session_spread_pct,
                "session_df": self.session_df}

    def line(self) -> str:
        run = ("run CV unknown (no session has two runs)" if self.run_cv_pct is None else
               f"run CV {self.run_cv_pct:.2f}% (df {self.run_df})")
        if self.boot_drift_pct is not None:
            boots = f"boot drift {self.boot_drift_pct:.2f}% ({self.boots} boots)"
        else:
            boots = "boot drift not measured (one boot)"
            if self.session_spread_pct is not None:
                boots += (f"; its sessions spread {self.session_spread_pct:.2f}% "
                          f"(df {self.session_df})")
        return f"    {self.metric} ({self.test}): {run}, {boots}"


def _pct(log_sd: float) -> float:
    return 100.0 * math.expm1(log_sd)


def noise_of(entry: BaselineEntry) -> MetricNoise:
    """The entry's run CV and boot drift (see the module docstring)."""
    side: BootSide = entry.side
    run_var = side.within_ss / side.within_df if side.within_df else None
    session = max(0.0, (side.session_ss - (run_var or 0.0) * side.session_run_share)
                  / side.session_df) if side.session_df else None
    drift = None
    if side.k >= 2:
        inside, _ = within_variances(side, side)
        spread = side.spread_ss / (side.k - 1)
        drift = _pct(math.sqrt(max(0.0, spread - sum(inside) / len(inside))))
    return MetricNoise(entry.test, entry.metric,
                       None if run_var is None else _pct(math.sqrt(run_var)), side.within_df,
                       drift, side.k, None if session is None else _pct(math.sqrt(session)),
                       side.session_df)


def metric_noise(baseline: Baseline) -> list[MetricNoise]:
    """Every entry with a used session, in file order."""
    return [noise_of(e) for e in baseline.entries if e.used_count]


def noise_lines(found: Sequence[MetricNoise]) -> list[str]:
    if not found:
        return ["  measured noise: no metric has a used session"]
    return ["  measured noise per metric (used sessions; run CV: runs within a session, boot "
            "drift: boot means beyond their runs):", *(n.line() for n in found)]
