"""Run validity: what the samplers saw that makes a number untrustworthy.

Without ``--sbc-strict`` findings are warnings; with it any finding turns the verdict into
``invalid`` and fails the test."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..measure.background import STEAL_PCT, Window
from ..model import Finding, Trace

AT_MAX_MIN_PCT = 95.0
TIME_BELOW_MAX_PCT = 2.0
SWAP_GROWTH_BYTES = 16 * 1024 * 1024
THROTTLING = ("clock-below-max", "thermal-trip", "time-below-max")
HOST_NOISE = ("background-load", "steal-time")  # other work on this machine or its VM host
KERNEL_THREADS = "kernel-threads"  # the kernel's own work beside the benchmark: verdicts stand
# other work on the controller of an emulated board, in CPUs averaged over the test: the idle
# gate's own threshold (measure/idle.py IDLE_BUSY_CPUS) is for a machine at rest; this one is
# for a machine running the emulator beside it
EMULATOR_OTHER_CPUS = 0.25


def _clock(telemetry: dict[str, Any]) -> list[Finding]:
    pct = telemetry.get("at_max_clock_pct")
    if pct is None or pct >= AT_MAX_MIN_PCT:
        return []
    clock = telemetry.get("clock_mhz") or {}
    tops = "/".join(f"{t:.0f}" for t in sorted({m for m in telemetry.get("max_mhz", []) if m}))
    return [Finding("clock-below-max",
                    f"clock held below max under load: {pct:g}% of "
                    f"{telemetry['under_load_samples']} under-load samples within 2% of max "
                    f"(median {clock.get('median', 0):.0f} MHz, max {tops} MHz)")]


def _thermal(trace: Trace) -> list[Finding]:
    out = []
    for i, sensor in enumerate(trace.sensors):
        readings = [s.temps_c[i] for s in trace.readings if s.temps_c[i] is not None]
        if not readings or not sensor.trips_c:
            continue
        peak = max(r for r in readings if r is not None)
        crossed = [(kind, temp) for kind, temp in sensor.trips_c if peak >= temp]
        if crossed:
            kind, temp = crossed[0]
            out.append(Finding("thermal-trip", f"thermal trip point crossed on {sensor.name}: "
                                               f"peak {peak:.1f} C >= {kind} trip {temp:.1f} C"))
    return out


def _time_in_state(trace: Trace, telemetry: dict[str, Any]) -> list[Finding]:
    pct = telemetry.get("time_below_max_pct")
    governors = {g for g in trace.governors if g}
    if pct is None or pct <= TIME_BELOW_MAX_PCT or governors != {"performance"}:
        return []
    return [Finding("time-below-max", f"cpufreq time_in_state: {pct:g}% of the run below max "
                                      "clock under the performance governor")]


def _swap(telemetry: dict[str, Any]) -> list[Finding]:
    growth = telemetry.get("swap_growth_bytes")
    if growth is None or growth <= SWAP_GROWTH_BYTES:
        return []
    return [Finding("swap-growth", f"swap grew by {growth / 2**20:.0f} MiB during the run")]


def _steal(telemetry: dict[str, Any]) -> list[Finding]:
    pct = telemetry.get("steal_pct")
    if pct is None or pct <= STEAL_PCT:
        return []
    return [Finding("steal-time", f"the hypervisor gave {pct:g}% of this VM's CPU time to other "
                                  "guests during the run: a busy host slows the workload, so the "
                                  "number is the host's, not the board's")]


def emulator_host(steal_pct: float, other_cpus: float, seconds: float,
                  who: str = "") -> list[Finding]:
    """Findings of the controller an emulated board ran on during one test (labgrid's
    QEMUDriver: the board's speed is this machine's): steal time and other work beside the
    emulator, which nothing on the board can see."""
    found = []
    if steal_pct > STEAL_PCT:
        found.append(Finding(
            "steal-time", f"the emulator's host (this controller) lost {steal_pct:.1f}% of its "
                          f"CPU time to other guests of its hypervisor during the test "
                          f"({seconds:.0f} s): an emulated board runs at its host's speed, so "
                          "the number is the host's, not the board's"))
    if other_cpus > EMULATOR_OTHER_CPUS:
        found.append(Finding(
            "background-load", f"other work on the emulator's host (this controller) kept "
                               f"{other_cpus:.2f} CPUs busy beside the emulator during the test "
                               f"({seconds:.0f} s): an emulated board shares its host's CPUs"
                               + (f" ({who})" if who else "")))
    return found


def beside(windows: Sequence[Window]) -> list[Finding]:
    """What ran beside the test's final measurements: ``background-load`` naming other
    processes (or saying nothing accounts for the load), ``kernel-threads`` naming kernel
    threads (kworker, ksoftirqd, irq/...) and interrupts.  Steal is ``steal-time`` (from the
    trace's telemetry)."""
    found: list[Finding] = []
    for window in windows:
        others, kernel, unknown = window.others(), window.kernel(), window.unattributed()
        found += [Finding("background-load", d) for d in (others, unknown) if d]
        if kernel:
            found.append(Finding(KERNEL_THREADS,
                                 f"{kernel}: the kernel's own work, so the verdict stands"))
    return list(dict.fromkeys(found))


def _governor(trace: Trace) -> list[Finding]:
    others = sorted({g for g in trace.governors if g and g != "performance"})
    if not others:
        return []
    return [Finding("governor", f"cpufreq governor {', '.join(others)}, not performance "
                                "(--sbc-performance sets it for the run)")]


def findings(trace: Trace, telemetry: dict[str, Any],
             extra: Iterable[Finding] = ()) -> list[Finding]:
    """Every validity finding of one test's trace, plus ``extra`` (idle gate, system checks)."""
    return [*_clock(telemetry), *_thermal(trace), *_time_in_state(trace, telemetry),
            *_swap(telemetry), *_steal(telemetry), *_governor(trace), *extra]


def throttling(found: Sequence[Finding]) -> dict[str, Any]:
    evidence = [f.detail for f in found if f.kind in THROTTLING]
    return {"throttled": bool(evidence), "evidence": evidence}
