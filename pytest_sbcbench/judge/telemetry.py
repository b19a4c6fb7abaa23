"""Under-load statistics of a sampler trace: only readings taken under load count.

A reading is under load when, during the interval that ended with it, the benchmark's process
tree used at least half a CPU (or, for ``sbcbench monitor``, the whole system did).  Readings
taken while the workload sleeps or between runs are idle readings: they never count toward "held
max clock", which is the seeds' 625 MHz trap.  (The telemetry block keeps the results schema's
names: ``samples`` and ``under_load_samples`` count readings.)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from ..measure.background import Window
from ..model import Reading, Trace

UNDER_LOAD_CPUS = 0.5
AT_MAX_FRACTION = 0.98
MIN_INTERVAL_FRACTION = 0.25


def under_load(trace: Trace) -> list[bool]:
    """One flag per reading; the first reading (taken before the workload starts) is idle."""
    flags = [False]
    for prev, cur in zip(trace.readings, trace.readings[1:], strict=False):
        dt = cur.t - prev.t
        if dt < MIN_INTERVAL_FRACTION * trace.interval:
            flags.append(False)  # too short to judge (the stop reading right after another)
            continue
        if trace.load_source == "system":
            busy = cur.system_busy_cpus or 0.0
        else:
            busy = (cur.tree_cpu_s - prev.tree_cpu_s) / dt
        flags.append(busy >= UNDER_LOAD_CPUS)
    return flags


def loaded_clocks(trace: Trace, reading: Reading) -> list[tuple[float, float | None]]:
    """(MHz, max MHz) of the CPUs the benchmark ran on, else of every sampled CPU."""
    index = {cpu: i for i, cpu in enumerate(trace.cpus)}
    chosen = [index[c] for c in reading.busy_cpus if c in index] or list(range(len(trace.cpus)))
    out: list[tuple[float, float | None]] = []
    for i in chosen:
        mhz = reading.mhz[i]
        if mhz is not None:
            out.append((mhz, trace.max_mhz[i]))
    return out


def clock_stats(trace: Trace, flags: list[bool]) -> dict[str, Any]:
    mhz_values: list[float] = []
    at_max = 0
    counted = 0
    for reading, loaded in zip(trace.readings, flags, strict=True):
        clocks = loaded_clocks(trace, reading) if loaded else []
        if not clocks:
            continue
        counted += 1
        mhz_values += [mhz for mhz, _ in clocks]
        if all(top is None or mhz >= AT_MAX_FRACTION * top for mhz, top in clocks):
            at_max += 1
    if not counted:
        return {"at_max_clock_pct": None, "clock_mhz": None}
    return {
        "at_max_clock_pct": round(100.0 * at_max / counted, 1),
        "clock_mhz": {"min": min(mhz_values), "median": statistics.median(mhz_values),
                      "max": max(mhz_values)},
    }


def time_below_max_pct(trace: Trace) -> float | None:
    """Share of cpufreq ``time_in_state`` spent below each CPU's max during the run."""
    below = total = 0
    for delta, top in zip(trace.time_in_state, trace.max_mhz, strict=False):
        for khz, ticks in delta.items():
            total += ticks
            if top is not None and khz < AT_MAX_FRACTION * top * 1000:
                below += ticks
    return round(100.0 * below / total, 1) if total else None


def steal_pct(trace: Trace) -> float | None:
    """Share of all CPU time a hypervisor gave to other guests during the run (time-weighted
    over the sampling intervals); None where the kernel reports no steal time."""
    weighted = seconds = 0.0
    for prev, cur in zip(trace.readings, trace.readings[1:], strict=False):
        if cur.steal_pct is not None:
            weighted += cur.steal_pct * (cur.t - prev.t)
            seconds += cur.t - prev.t
    return round(weighted / seconds, 1) if seconds > 0 else None


def summarize_trace(trace: Trace) -> dict[str, Any]:
    """The ``telemetry`` block of a result."""
    flags = under_load(trace)
    temps = [s.temp_c for s in trace.readings if s.temp_c is not None]
    swaps = [s.swap_used for s in trace.readings if s.swap_used is not None]
    mems = [s.mem_used for s in trace.readings if s.mem_used is not None]
    out: dict[str, Any] = {
        "interval_s": trace.interval,
        "samples": len(trace.readings),
        "under_load_samples": sum(flags),
        **clock_stats(trace, flags),
        "max_mhz": list(trace.max_mhz),
        "temperature_c": {"idle": trace.readings[0].temp_c if trace.readings else None,
                          "peak": max(temps) if temps else None},
        "memory_used_max_bytes": max(mems) if mems else None,
        "swap_used_max_bytes": max(swaps) if swaps else None,
        "swap_growth_bytes": (swaps[-1] - swaps[0]) if len(swaps) > 1 else None,
        "time_below_max_pct": time_below_max_pct(trace),
        "system_busy_cpus": _spread([s.system_busy_cpus for s in trace.readings[1:]]),
        "steal_pct": steal_pct(trace),
        "unavailable": dict(trace.unavailable),
        "sampler_cost": sampler_cost(trace),
    }
    return out


def sampler_cost(trace: Trace) -> dict[str, float | None] | None:
    """The sampler's own CPU time (the local sampler's thread, or the board-side ``sh`` and its
    ``sleep`` children read from the board's stat file) and its share of one CPU over the
    trace's span; None when it was not measured (a sampler driven without its thread)."""
    cpu = trace.sampler_cpu_s
    if cpu is None:
        return None
    span = trace.readings[-1].t - trace.readings[0].t if len(trace.readings) > 1 else 0.0
    return {"cpu_s": round(cpu, 4),
            "one_cpu_pct": round(100.0 * cpu / span, 3) if span > 0 else None}


def _spread(values: list[float | None]) -> dict[str, float] | None:
    """Median and max of a sampled series (system-wide busy CPUs)."""
    known = [v for v in values if v is not None]
    if not known:
        return None
    return {"median": round(statistics.median(known), 3), "max": round(max(known), 3)}


def background(windows: Sequence[Window]) -> dict[str, Any] | None:
    """The ``background`` block of a result: what ran beside its final measurement (the
    busiest window when the test measured several), who by name; None when nothing was
    read."""
    known = [w for w in windows if w.background_cpus is not None]
    if not known:
        return None
    window = max(known, key=lambda w: w.background_cpus or 0.0)
    found = window.attribution
    return {"cpus": window.background_cpus, "steal_pct": window.steal_pct,
            "kernel_cpus": round(found.kernel_cpus, 3) if found else None,
            "other_cpus": round(found.other_cpus, 3) if found else None,
            "processes": [{"pid": u.pid, "name": u.name, "cpus": u.cpus, "kernel": u.kernel}
                          for u in found.users] if found else []}
