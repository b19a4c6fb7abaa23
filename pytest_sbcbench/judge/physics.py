"""The physics gate: a number beyond what the hardware can do is a bug report, not a result.

Limits come from the board profile: DRAM theoretical bandwidth (``memory-read``,
``memory-write``), the storage interface or media ceiling (``storage-read``,
``storage-write``), and the maximum clock (sampled clocks above it are sensor or driver bugs)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Result, Verdict, display
from ..platform.board import BoardProfile

CLOCK_SLACK = 1.05
PHYSICS = "beats physics: a bug report, not a result"


@dataclass(frozen=True)
class Limit:
    metric: str
    value: float
    unit: str
    source: str


def limits(board: BoardProfile) -> list[Limit]:
    facts = board.facts
    note = str(facts.get("limits_note", "board profile"))
    out = []
    dram = facts.get("dram_bandwidth_bytes_per_s")
    if dram:
        dram_source = f"{board.dram or 'DRAM'} theoretical bandwidth ({note})"
        out += [Limit(m, float(dram), "B/s", dram_source)
                for m in ("memory-read", "memory-write", "memory-copy", "memory-triad")]
    storage = facts.get("storage_max_bytes_per_s")
    if storage:
        storage_source = f"{facts.get('storage', 'storage')} ({note})"
        out += [Limit(m, float(storage), "B/s", storage_source)
                for m in ("storage-read", "storage-write")]
    tops = [c.max_mhz for c in board.clusters if c.max_mhz]
    if tops:
        out.append(Limit("clock", max(tops) * CLOCK_SLACK, "MHz",
                         f"max clock {max(tops):.0f} MHz of {board.name} (+5% slack)"))
    return out


def measured_limits(result: Result) -> list[Limit]:
    """Storage results carry the ceiling of the interface they were measured through."""
    ceiling = result.telemetry.get("interface_limit_bytes_per_s")
    metric = result.measurement.metric
    if not ceiling or not metric.startswith("storage-"):
        return []
    source = str(result.telemetry.get("interface", "the storage interface"))
    return [Limit(metric, float(ceiling), "B/s", source)]


def check(result: Result, board: BoardProfile) -> Verdict | None:
    """``implausible`` when any sample or a sampled clock exceeds a board or interface limit."""
    found = []
    m = result.measurement
    for limit in [*limits(board), *measured_limits(result)]:
        if limit.metric == m.metric and limit.unit == m.unit and max(m.samples) > limit.value:
            shown, unit = display(max(m.samples), limit.unit)
            top, _ = display(limit.value, limit.unit)
            found.append(f"{limit.metric} {shown} {unit} {PHYSICS} (limit {top} {unit}: "
                         f"{limit.source})")
        if limit.metric == "clock":
            clock = (result.telemetry.get("clock_mhz") or {}).get("max")
            if clock is not None and clock > limit.value:
                found.append(f"sampled clock {clock:.0f} MHz {PHYSICS} ({limit.source})")
    return Verdict("implausible", "; ".join(found)) if found else None
