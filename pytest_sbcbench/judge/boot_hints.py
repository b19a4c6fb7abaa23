"""What deciding at delta would take: boots and runs on both sides, as numbers to act on.

The variance components of a look (between-boot and run-to-run) are taken as they were
estimated; for k' baseline and c' candidate boots of r runs each the test has k' + c' - 2
degrees of freedom and the pass rule needs
``(t(1 - alpha, df) + t(0.8, df)) x noise_upper(pass_df) x SE(k', c', r) <= delta``, the same
power-at-the-noise's-upper-bound rule a look applies (:func:`.looks.pass_df`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial

from .boot_test import BootNoise
from .looks import NOISE_CONFIDENCE, POWER, noise_upper, pass_df
from .tdist import t_ppf

cached_noise_upper = lru_cache(maxsize=1024)(noise_upper)  # df lies on a grid

MAX_BASELINE_BOOTS = 40
MAX_CANDIDATE_BOOTS = 10
MAX_RUNS = 100


@dataclass(frozen=True)
class BootsNeeded:
    """The fewest boots (same runs a boot), and alternatively the runs a boot at the planned
    boots, for 80% power at delta; None where not reachable within the caps."""

    baseline_boots: int | None
    candidate_boots: int | None
    runs: int  # per boot, for the boots figure
    runs_at_planned: int | None  # per boot, both sides, with the boots as planned


def detectable(noise: BootNoise, k: int, c: int, runs: int, alpha: float,
               confidence: float = NOISE_CONFIDENCE) -> float:
    """The drop (log) a look with these boots detects with 80% power, noise at its bound."""
    df = float(k + c - 2)
    if df < 1:
        return float("inf")
    z = t_ppf(1 - alpha, df) + t_ppf(POWER, df)
    return z * cached_noise_upper(pass_df(df, k + c), confidence) * noise.se_for(k, c, runs)


def needed(noise: BootNoise, runs: int, k: int, c: int, delta: float, alpha: float,
           confidence: float = NOISE_CONFIDENCE) -> BootsNeeded:
    """Fewest added boots (k' >= k, c' >= c; ties: fewer candidate boots), and the runs per
    boot that would do at k and c."""
    best: tuple[int, int] | None = None
    for c2 in range(c, MAX_CANDIDATE_BOOTS + 1):
        k2 = _first(partial(_enough, noise, c=c2, runs=runs, alpha=alpha, delta=delta,
                            confidence=confidence), k, MAX_BASELINE_BOOTS)
        if k2 is not None and (best is None or k2 + c2 < sum(best)):
            best = (k2, c2)
    at_planned = _first(lambda r: detectable(noise, k, c, r, alpha, confidence) <= delta, runs,
                        MAX_RUNS)
    return BootsNeeded(best[0] if best else None, best[1] if best else None, runs, at_planned)


def _enough(noise: BootNoise, k: int, *, c: int, runs: int, alpha: float, delta: float,
            confidence: float) -> bool:
    return detectable(noise, k, c, runs, alpha, confidence) <= delta


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
