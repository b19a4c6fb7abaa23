"""Corroboration: one board against one CPU core by two independent workloads.

The seeds' method (seeds/000): the Star64 is 6.02x slower than a Raspberry Pi 5 on the pinned
compile (461.28 s vs 76.65 s), both quad-core, and 5.9x behind a Cortex-A76 on software
SHA-512; "two independent measurements agree, so the figure is real".  Here:

* the **compile** ratio is ``board / reference`` on one build (same tree, commit, fingerprint:
  one ranking group of unit ``s``) where the reference is made of one core type only and has
  the board's core count, so the whole-chip ratio is a core-for-core one;
* the **control** ratio is ``reference / board`` on the single-thread :data:`.fleet.CONTROL`
  (sha512: no board accelerates it) in one throughput table, where the reference's fastest
  cluster is that core (a single-thread run is scheduled there);
* the two **agree** when the larger is at most :data:`AGREEMENT` (10%) above the smaller.

The board must itself be of one core type, so "its core" means one thing.  Every pair of
references that qualifies is listed: two Cortex-A76 boards give two compile ratios."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..platform.board import BoardProfile
from .fleet import CONTROL, FleetEntry, crypto_families, groups

AGREEMENT = 0.10  # the larger ratio at most 10% above the smaller


@dataclass(frozen=True)
class Ratio:
    """How many times slower ``board`` is than ``reference`` on one workload."""

    workload: str
    board: str
    reference: str
    value: float
    reference_value: float
    unit: str
    slower: float


@dataclass(frozen=True)
class Corroboration:
    board: str
    core: str
    compile: Ratio
    control: Ratio

    @property
    def spread(self) -> float:
        """The larger ratio over the smaller, minus one (0.017: 1.7%)."""
        high, low = sorted((self.compile.slower, self.control.slower), reverse=True)
        return high / low - 1

    @property
    def agree(self) -> bool:
        return self.spread <= AGREEMENT


def only_core(profile: BoardProfile | None) -> str | None:
    """The one core type of a board, None for a mixed one (big.LITTLE) or an unknown board."""
    if profile is None or not profile.clusters:
        return None
    found = {c.core for c in profile.clusters}
    return found.pop() if len(found) == 1 else None


def fastest_core(profile: BoardProfile | None) -> str | None:
    """The core of the cluster with the highest clock (where a single-thread run lands)."""
    if profile is None or not profile.clusters:
        return None
    return max(profile.clusters, key=lambda c: c.max_mhz or 0).core


def compile_ratios(entries: Sequence[FleetEntry], profiles: dict[str, BoardProfile]
                   ) -> list[tuple[str, Ratio]]:
    """(the reference's core, ratio) for every board pair on one build where the reference
    is of one core type with the board's core count."""
    out = []
    for (metric, unit, identity), group in groups(entries).items():
        values = identity.as_dict()
        if unit != "s" or "commit" not in values:
            continue
        name = f"{metric} ({values.get('workload')} {values['commit']})"
        for mine in group:
            for ref in group:
                core = only_core(profiles.get(ref.board))
                mine_p, ref_p = profiles.get(mine.board), profiles.get(ref.board)
                if (ref is mine or core is None or mine_p is None or ref_p is None
                        or mine_p.cores != ref_p.cores):
                    continue
                out.append((core, Ratio(name, mine.board, ref.board, mine.value, ref.value,
                                        unit, mine.value / ref.value)))
    return out


def control_ratios(entries: Sequence[FleetEntry], profiles: dict[str, BoardProfile]
                   ) -> list[tuple[str, Ratio]]:
    """(the reference's fastest core, ratio) for every board pair of one single-thread
    throughput table that both measured the control in."""
    out = []
    for identity, family in crypto_families(entries).items():
        values = identity.as_dict()
        if values.get("threads") != 1:
            continue
        name = f"{CONTROL} ({values.get('workload')}, {values.get('block_bytes')} bytes, 1 thread)"
        having = {b: m[CONTROL] for b, m in family.items() if CONTROL in m}
        for mine, mine_e in having.items():
            for ref, ref_e in having.items():
                core = fastest_core(profiles.get(ref))
                if ref == mine or core is None:
                    continue
                out.append((core, Ratio(name, mine, ref, mine_e.value, ref_e.value, "B/s",
                                        ref_e.value / mine_e.value)))
    return out


def corroborations(entries: Sequence[FleetEntry], profiles: dict[str, BoardProfile]
                   ) -> list[Corroboration]:
    """Every (board, core) that both workloads measure against a board of that core, each
    pair of references once; the board of one core type, another than the reference's."""
    controls = control_ratios(entries, profiles)
    out = []
    for core, compiled in compile_ratios(entries, profiles):
        own = only_core(profiles.get(compiled.board))
        if own is None or own == core:
            continue
        out += [Corroboration(compiled.board, core, compiled, control)
                for ref_core, control in controls
                if ref_core == core and control.board == compiled.board]
    return sorted(out, key=lambda c: (c.board, c.core, c.compile.reference,
                                      c.control.reference))
