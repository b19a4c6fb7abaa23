"""Boots as the unit of replication: a baseline's sessions grouped by boot, in log space.

A new kernel or BSP always means a new boot, and a boot moves the numbers even when nothing
changed (memory placement, firmware and clock state, the page cache).  So sessions are grouped
by boot id (sessions of the same boot are one replicate; a session of unknown boot is its own):
:func:`group_by_boot` here (what a saved baseline holds, :mod:`.save_note`), and the
three-level reduction the verdict judges by in :mod:`.boot_test`.

Where the boots give no degrees of freedom for the boot-to-boot drift (one baseline boot and one
candidate boot), the verdict assumes the documented one-boot allowance
:data:`ONE_BOOT_ALLOWANCE`, unless the spread between sessions of one boot is larger
(:func:`pytest_sbcbench.judge.boot_test.boot_noise`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

# The one-boot allowance: the between-boot SD assumed when one boot a side leaves no degree of
# freedom for it.  A boot moves the numbers, and with one boot a side nothing says how far: on
# the development VM, four groups of openssl runs 12 minutes apart in ONE boot moved their
# group means by 1.3% to 7.2% (SD of the group means, tests/data/this_machine/gate-replay_*) on
# a host shared with other jobs; no published reboot-to-reboot figure for SBCs was found.  So
# one boot a side judges against a drift as large as 5% (df 4): only a change far beyond any
# drift (a lost AES unit, -90%) is called, nothing passes, and every such verdict says the
# drift was assumed.  From three boots on, the boots' own spread is used.
ONE_BOOT_SD_PCT = 5.0
ONE_BOOT_DF = 4.0
# Never judge with a between-boot SD below this (0.1%): a boot never reproduces exactly.
MIN_BOOT_SD_PCT = 0.1


@dataclass(frozen=True)
class BaselineSession:
    """One stored session: its samples and the boot it ran in (None: unknown, own replicate)."""

    samples: tuple[float, ...]
    boot_id: str | None = None


@dataclass(frozen=True)
class BootPrior:
    """A between-boot standard deviation (percent, log scale) and its degrees of freedom."""

    sd_pct: float
    df: float
    source: str

    @property
    def variance(self) -> float:
        return math.log1p(self.sd_pct / 100.0) ** 2


ONE_BOOT_ALLOWANCE = BootPrior(ONE_BOOT_SD_PCT, ONE_BOOT_DF, "one-boot allowance")


@dataclass(frozen=True)
class Boots:
    """A baseline reduced to one replicate per boot, in log space: each boot's mean and its
    sample count (first appearance order)."""

    means: tuple[float, ...]
    counts: tuple[int, ...]

    @property
    def k(self) -> int:
        return len(self.means)


def logs(values: Sequence[float]) -> list[float]:
    """Natural logs of positive finite samples; anything else is a ValueError (checked on the
    logs in C-level passes: a baseline's millions of samples are each taken once)."""
    try:
        out = list(map(math.log, values))  # zero or negative: a ValueError
    except ValueError:
        out = []
    if not out or not math.isfinite(sum(out)):  # empty, or an infinite or NaN sample
        raise ValueError(f"samples must be non-empty, finite and positive, got {list(values)}")
    return out


def group_by_boot(sessions: Sequence[BaselineSession]) -> Boots:
    """Merge sessions of the same boot into one replicate (unknown boot: its own replicate)."""
    if not sessions:
        raise ValueError("a baseline needs at least one session")
    groups: dict[object, list[float]] = {}
    for i, s in enumerate(sessions):
        key: object = s.boot_id if s.boot_id is not None else ("session", i)
        groups.setdefault(key, []).extend(logs(s.samples))
    values = list(groups.values())
    return Boots(tuple(statistics.fmean(g) for g in values), tuple(len(g) for g in values))
