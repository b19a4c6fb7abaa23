"""Whether other work disturbed a measurement's numbers: one rule for the run, ``sbcbench
compare`` and the save, read from what the result records.

The run records what ran beside each test's final measurement in the result's telemetry
(``disturbed``: ``load``, other processes or load no scan accounts for; ``steal``, the
hypervisor's; ``after``, why nothing was re-measured), and each run's clock in its details
(``runs``: the tool's CPU seconds beside the wall seconds, :mod:`..measure.clocks`).  From
those alone:

* a **wall-time** metric (a build, STREAM, storage, ``openssl speed -elapsed``) measured beside
  other work or steal judges nothing: ``invalid``, and a save quarantines it;
* a **CPU-time** metric (``openssl speed``'s rate per second of its own user CPU time, the
  in-process rate per second of its thread's CPU time) is judged: other processes time-share
  the CPU, which makes the tool's wall-clock rate fall, not its rate per CPU second.  The load
  is said beside the verdict.  It is ``invalid`` (and quarantined in a save) only where its
  own numbers say they cannot be trusted: the hypervisor's steal (time taken from this
  machine that its own accounting may still charge to the tool), a run in which the tool had
  the CPU for fewer than :data:`MIN_CPU_TICKS` ticks of its clock (the divisor too coarse to
  divide by), or an emulated board (its CPU time runs at its host's mercy).

Background load of a CPU-time metric is thus recorded, never thrown away."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..measure.clocks import CPU_CLOCKS, TICK_S, RunClock, clock_of, run_clocks
from ..model import Measurement

FACTS_KEY = "disturbed"  # the run's record in a result's telemetry
EMULATED_KEY = "emulated"  # in telemetry: the board is an emulator on the controller
MIN_CPU_TICKS = 25  # a run's CPU time below this many ticks of its clock is too coarse
LOAD_KINDS = ("background-load",)  # findings a CPU-time rate is not moved by
TOOLS = {"openssl": "openssl's own user CPU time", "cryptography": "its thread's CPU time"}


@dataclass(frozen=True)
class Disturbance:
    """``invalid``: why the number judges nothing (None: it stands); ``note``: what a verdict
    that stands says of the work beside it."""

    invalid: str | None = None
    note: str | None = None


def facts(telemetry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    found = telemetry.get(FACTS_KEY)
    return found if isinstance(found, Mapping) and any(found.values()) else None


def _text(found: Mapping[str, Any], key: str) -> str | None:
    value = found.get(key)
    return value if isinstance(value, str) and value else None


def cpu_timed(m: Measurement, telemetry: Mapping[str, Any]) -> bool:
    """A rate per second of the tool's own CPU time, on a board whose CPU time is its own."""
    return clock_of(m.identity) in CPU_CLOCKS and not telemetry.get(EMULATED_KEY)


def coarse(m: Measurement) -> str | None:
    """Why the CPU time the tool's runs got is too coarse to divide by, or None."""
    clock = clock_of(m.identity)
    runs = run_clocks(m.details, len(m.samples))
    if not runs or clock not in TICK_S:
        return None
    least = min(runs, key=lambda r: r.cpu_s)
    ticks = least.cpu_s / TICK_S[clock]
    if ticks >= MIN_CPU_TICKS:
        return None
    return (f"the tool had the CPU for {least.cpu_s:g} s of a {least.wall_s:g} s run "
            f"({100 * least.share:.0f}%): {ticks:.0f} ticks of its {TICK_S[clock]:g} s clock, "
            f"fewer than the {MIN_CPU_TICKS} a rate per CPU second needs")


def shares(runs: Sequence[RunClock] | None) -> str:
    if not runs:
        return "its share of the wall clock not recorded"
    low, high = (round(100 * f(r.share for r in runs)) for f in (min, max))
    span = f"{low}%" if low == high else f"{low}-{high}%"
    return f"it had the CPU for {span} of each run"


def disturbance(m: Measurement, telemetry: Mapping[str, Any]) -> Disturbance:
    """What the run's record (:func:`facts`) and the result's own numbers say (see the
    module docstring)."""
    found = facts(telemetry)
    if found is None:
        return Disturbance()
    load, steal, after = (_text(found, k) for k in ("load", "steal", "after"))
    tail = f"; {after}" if after else ""
    if not cpu_timed(m, telemetry):
        why = "; ".join(p for p in (load, steal) if p)
        return Disturbance(f"{why}{tail}" if why else None)
    if steal:
        return Disturbance(f"{'; '.join(p for p in (load, steal) if p)}{tail}")
    if not load:
        return Disturbance()
    too_coarse = coarse(m)
    if too_coarse:
        return Disturbance(f"{load}; {too_coarse}{tail}")
    tool = TOOLS.get(str(m.identity.as_dict().get("tool")), "the tool's own CPU time")
    return Disturbance(note=f"measured beside other work ({load}); judged per second of "
                            f"{tool}, which time-sharing does not move "
                            f"({shares(run_clocks(m.details, len(m.samples)))})")


def contaminating(m: Measurement, telemetry: Mapping[str, Any],
                  found: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Of a result's contamination findings ``found`` (kind, detail), those that disturb its
    numbers: all of them for a wall-time metric; for a CPU-time one, background load only
    where its runs' CPU time is too coarse (:func:`coarse`)."""
    if not cpu_timed(m, telemetry) or coarse(m):
        return tuple(found)
    return tuple(f for f in found if f[0] not in LOAD_KINDS)
