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


def check(result: Result, board: BoardProfile) -> Verdict | None:
    """``implausible`` when the result's median or a sampled clock exceeds a limit."""
    found = []
    for limit in limits(board):
        if limit.metric == result.measurement.metric and limit.unit == result.measurement.unit:
            value = max(result.measurement.samples)
            if value > limit.value:
                shown, unit = display(value, limit.unit)
                top, _ = display(limit.value, limit.unit)
                found.append(f"{limit.metric} {shown} {unit} {PHYSICS} (limit {top} {unit}: "
                             f"{limit.source})")
        if limit.metric == "clock":
            clock = (result.telemetry.get("clock_mhz") or {}).get("max")
            if clock is not None and clock > limit.value:
                found.append(f"sampled clock {clock:.0f} MHz {PHYSICS} ({limit.source})")
    found += _interface(result)
    return Verdict("implausible", "; ".join(found)) if found else None


def _interface(result: Result) -> list[str]:
    """Storage results carry the ceiling of the interface they were measured through."""
    ceiling = result.telemetry.get("interface_limit_bytes_per_s")
    metric = result.measurement.metric
    if not ceiling or not metric.startswith("storage-"):
        return []
    value = max(result.measurement.samples)
    if value <= float(ceiling):
        return []
    shown, unit = display(value, "B/s")
    top, _ = display(float(ceiling), "B/s")
    source = result.telemetry.get("interface", "the storage interface")
    return [f"{metric} {shown} {unit} {PHYSICS} (limit {top} {unit}: {source})"]
