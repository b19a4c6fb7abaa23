"""The physics gate: a number beyond what the hardware can do is a bug report, not a result.

Limits come from the board profile: each metric a workload registration bounds by a board
fact (DRAM theoretical bandwidth, the storage interface or media ceiling: see
:data:`pytest_sbcbench.workloads.BUILTIN`) gets that fact as its limit, and the maximum clock
bounds the sampled clocks (above it: sensor or driver bugs).  Ceilings that hold on any board
(per thread, for a class of metrics) are what the workloads declare
(:attr:`pytest_sbcbench.workload.Workload.limits`; the crypto ones:
:data:`pytest_sbcbench.workloads.crypto.CEILINGS`), so a contributed workload bounds its own."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import SbcBenchError
from ..model import Judgeable, Verdict, display
from ..platform.board import BoardProfile
from ..words import counted
from ..workload import Ceiling, Limits
from ..workloads import DRAM, STORAGE, builtin_limits

CLOCK_SLACK = 1.05
PHYSICS = "beats physics: a bug report, not a result"


@dataclass(frozen=True)
class Limit:
    metric: str
    value: float
    unit: str
    source: str


def limits(board: BoardProfile, declared: Limits | None = None) -> list[Limit]:
    """The board's limit for each metric ``declared`` bounds by a board fact (default: what the
    built-in workloads declare) whose fact the profile has, and its clock."""
    facts = board.facts
    note = str(facts.get("limits_note", "board profile"))
    sources = {DRAM: f"{board.dram or 'DRAM'} theoretical bandwidth ({note})",
               STORAGE: f"{facts.get('storage', 'storage')} ({note})"}
    out = []
    for metric, fact in (builtin_limits() if declared is None else declared).facts.items():
        value = facts.get(fact)
        if value:
            out.append(Limit(metric, float(value), "B/s", sources.get(fact, f"{fact} ({note})")))
    tops = [c.max_mhz for c in board.clusters if c.max_mhz]
    if tops:
        out.append(Limit("clock", max(tops) * CLOCK_SLACK, "MHz",
                         f"max clock {max(tops):.0f} MHz of {board.name} (+5% slack)"))
    return out


def ceiling_limits(result: Judgeable, ceilings: Sequence[Ceiling],
                   board: BoardProfile | None = None) -> list[Limit]:
    """The declared ceilings of this result's class (its identity's algorithm and op, its
    unit), scaled by its identity's thread count, at most the board's cores (a file claiming
    1000 threads on a 4-core board gets 4 cores' ceiling: threads beyond the cores add no
    throughput)."""
    m = result.measurement
    ident = m.identity.as_dict()
    algorithm, op = ident.get("algorithm"), ident.get("op")
    if algorithm is None:
        return []
    found = [(c, size) for c in ceilings if c.unit == m.unit
             for size in [c.factor(str(algorithm), None if op is None else str(op))]
             if size is not None]
    threads = ident.get("threads")
    n = threads if isinstance(threads, int) and not isinstance(threads, bool) and threads > 0 \
        else 1
    why = ""
    if board is not None and 0 < board.cores < n:
        why = f" (the {board.cores} cores of {board.name}; the result claims {n} threads)"
        n = board.cores
    out = []
    for ceiling, size in found:
        per_thread = ceiling.per_thread * size
        shown, unit = display(per_thread, ceiling.unit)
        source = f"; {ceiling.source}" if ceiling.source else ""
        out.append(Limit(m.metric, per_thread * n, m.unit,
                         f"{ceiling.kind} ceiling {shown} {unit} per thread x "
                         f"{counted(n, 'thread')}{why}{source}"))
    return out


def measured_limits(result: Judgeable) -> list[Limit]:
    """A result may carry the ceiling of the interface it was measured through (storage)."""
    metric = result.measurement.metric
    ceiling = _positive(result.telemetry.get("interface_limit_bytes_per_s"),
                        f"{result.test}: interface_limit_bytes_per_s")
    if not ceiling:
        return []
    source = str(result.telemetry.get("interface", "the storage interface"))
    return [Limit(metric, ceiling, "B/s", source)]


def _positive(value: Any, what: str, *, zero_ok: bool = False) -> float | None:
    """A limit or reading the gate compares against: None when absent, else a finite number
    above 0 (or 0 with ``zero_ok``); anything else (a string, a list, NaN, a negative) is
    refused, never compared."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
        raise SbcBenchError(f"{what} is {value!r}, not a finite number above 0: the physics "
                            "gate cannot judge against it")
    return float(value)


def check(result: Judgeable, board: BoardProfile, declared: Limits | None = None
          ) -> Verdict | None:
    """``implausible`` when any sample or a sampled clock exceeds a board limit (of the metrics
    ``declared`` bounds by a board fact), an interface limit or a declared ceiling of its
    class (``declared``: the run's workloads' :class:`~pytest_sbcbench.workload.Limits`;
    default: the built-in workloads')."""
    found = []
    m = result.measurement
    declared = builtin_limits() if declared is None else declared
    for limit in [*limits(board, declared), *measured_limits(result),
                  *ceiling_limits(result, declared.ceilings, board)]:
        if limit.metric == m.metric and limit.unit == m.unit and max(m.samples) > limit.value:
            shown, unit = display(max(m.samples), limit.unit)
            top, _ = display(limit.value, limit.unit)
            found.append(f"{limit.metric} {shown} {unit} {PHYSICS} (limit {top} {unit}: "
                         f"{limit.source})")
        if limit.metric == "clock":
            clocks = result.telemetry.get("clock_mhz") or {}
            clock = _positive(clocks.get("max"), f"{result.test}: clock_mhz max", zero_ok=True) \
                if isinstance(clocks, dict) else None
            if clock is not None and clock > limit.value:
                found.append(f"sampled clock {clock:.0f} MHz {PHYSICS} ({limit.source})")
    return Verdict("implausible", "; ".join(found)) if found else None
