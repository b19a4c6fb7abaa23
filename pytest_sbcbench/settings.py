"""Private: the public API is ``pytest_sbcbench`` itself (its ``__all__``).

What one run was asked to do: :class:`Settings`, plain data built from the plugin's option
table (:mod:`pytest_sbcbench.plugin.options`) when the run is built; the command-line values'
defaults and validators are in :mod:`pytest_sbcbench.values`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .values import IDLE_WAIT, QUICK_IDLE_WAIT

if TYPE_CHECKING:
    from .platform.sysroot import Sysroot


@dataclass(frozen=True)
class Settings:
    board: str | None
    baselines: Path
    save_baseline: bool
    results: Path | None
    sysroot: Sysroot
    sysroot_given: bool
    quick: bool
    runs: int | None
    interval: float
    strict: bool
    performance: bool
    trace_dir: Path | None
    cache: Path | None
    drop_caches: bool
    allow_incomparable: bool
    verify_key: Path | None
    report_dir: Path | None
    storage_path: Path | None = None
    idle_wait_given: float | None = None
    explicit: bool = False
    accept: tuple[str, ...] = ()
    min_effect_pct: float | None = None
    max_runs: int | None = None
    candidate: str | None = None
    kernel_commit: str | None = None
    gate: bool = False
    lab_kernel: str | None = None
    boots: int | None = None
    boots_auto: bool = False  # --sbc-boots auto: boot on until decided or the budget is spent
    boots_budget: int | None = None  # --sbc-boots-budget (default looks.DEFAULT_BOOT_BUDGET)
    history: str | None = None  # --sbc-history URL (else SBCBENCH_HISTORY, else baselines)

    @property
    def idle_wait(self) -> float:
        """Seconds the idle gate may wait: ``--sbc-idle-wait``, else 10 (2 quick)."""
        if self.idle_wait_given is not None:
            return self.idle_wait_given
        return QUICK_IDLE_WAIT if self.quick else IDLE_WAIT

    @property
    def cache_root(self) -> Path:
        """``--sbc-cache`` or the user's cache directory: checkouts, logs, compiled helpers."""
        if self.cache is not None:
            return self.cache
        from .fileio import default_cache

        return default_cache()
