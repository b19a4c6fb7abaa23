"""What deciding at delta would take: boots and runs on both sides, as numbers to act on.

The variance components of a look (between-boot and run-to-run) are taken as they were
estimated; for k' baseline and c' candidate boots of r runs each the test has k' + c' - 2
degrees of freedom, and an unchanged metric is expected to pass when its pass bound clears
delta with :data:`.looks.POWER` probability:
``(t(1 - level, df) + t(POWER, df)) x SE(k', c', r) <= delta``, ``level`` the pass level the
plan would spend at that look."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .boot_test import BootNoise
from .looks import POWER
from .tdist import t_ppf

MAX_BASELINE_BOOTS = 40
MAX_CANDIDATE_BOOTS = 10
MAX_RUNS = 100

Level = Callable[[int, int], float]  # (k, c) -> the pass look's one-sided level


@dataclass(frozen=True)
class BootsNeeded:
    """The fewest boots (same runs a boot), and alternatively the runs a boot at the planned
    boots, for an unchanged metric to pass at delta with 80% probability; None where not
    reachable within the caps."""

    baseline_boots: int | None
    candidate_boots: int | None
    runs: int  # per boot, for the boots figure
    runs_at_planned: int | None  # per boot, both sides, with the boots as planned


def margin(noise: BootNoise, k: int, c: int, runs: int, level: Level) -> float:
    """The pass bound's expected distance above an unchanged metric's move (log), at 80%."""
    df = float(k + c - 2)
    alpha = level(k, c)
    if df < 1 or alpha <= 0.0:
        return float("inf")
    return (t_ppf(1 - alpha, df) + t_ppf(POWER, df)) * noise.se_for(k, c, runs)


def needed(noise: BootNoise, runs: int, k: int, c: int, delta: float, level: Level
           ) -> BootsNeeded:
    """Fewest added boots (k' >= k, c' >= c; ties: fewer candidate boots), and the runs per
    boot that would do at k and c."""
    best: tuple[int, int] | None = None
    for c2 in range(c, MAX_CANDIDATE_BOOTS + 1):
        k2 = _first(partial(_passes, noise, c=c2, runs=runs, level=level, delta=delta), k,
                    MAX_BASELINE_BOOTS)
        if k2 is not None and (best is None or k2 + c2 < sum(best)):
            best = (k2, c2)
    at_planned = _first(lambda r: margin(noise, k, c, r, level) <= delta, runs, MAX_RUNS)
    return BootsNeeded(best[0] if best else None, best[1] if best else None, runs, at_planned)


def _passes(noise: BootNoise, k: int, *, c: int, runs: int, level: Level, delta: float
            ) -> bool:
    return margin(noise, k, c, runs, level) <= delta


def _first(ok: Callable[[int], bool], low: int, high: int) -> int | None:
    """The least i in [low, high] with ok(i), ok monotone (False then True); None: none."""
    if not ok(high):
        return None
    while low < high:
        mid = (low + high) // 2
        if ok(mid):
            high = mid
        else:
            low = mid + 1
    return low


def needed_text(hint: BootsNeeded | None, delta_pct: float) -> str:
    if hint is None:
        return "no variance to plan by"
    parts = []
    if hint.baseline_boots is not None and hint.candidate_boots is not None:
        parts.append(f"{hint.baseline_boots} baseline boots and {hint.candidate_boots} "
                     f"candidate boots of {hint.runs} runs")
    if hint.runs_at_planned is not None:
        parts.append(f"{hint.runs_at_planned} runs a boot on both sides")
    if not parts:
        return (f"deciding at {delta_pct:g}% needs more than {MAX_BASELINE_BOOTS} baseline "
                f"and {MAX_CANDIDATE_BOOTS} candidate boots, or a quieter board")
    return f"deciding at {delta_pct:g}% needs " + ", or ".join(parts)
