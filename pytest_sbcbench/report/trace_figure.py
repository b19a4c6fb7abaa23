"""The per-test trace chart: a panel for each thing this machine let the sampler read.

Clock per CPU (cpufreq), the hottest sensor (thermal zones, hwmon), CPU use (the whole
system's busy CPUs and the benchmark's own process tree), steal time (a VM's hypervisor
taking the CPU) and memory in use.  A machine without cpufreq or thermal zones gets no empty
axes: what was not sampled is said once, under the panels, with the sampler's reason.
Under-load spans are shaded in every panel; every axis is linear and names its unit."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from ..judge.telemetry import under_load
from ..model import Reading, Trace

MIB = 2 ** 20


def missing(trace: Trace) -> dict[str, str]:
    """The readings this machine did not have, with the reason (a VM without cpufreq, a
    board without thermal zones): said under the chart, never drawn as an empty panel."""
    out = {}
    if not any(v is not None for s in trace.readings for v in s.mhz):
        reason = trace.unavailable.get("cpufreq") or "no cpufreq on this machine"
        out["clock"] = f"clock ({reason})"
    if not any(s.temp_c is not None for s in trace.readings):
        reason = trace.unavailable.get("thermal") or "no thermal sensor on this machine"
        out["temperature"] = f"temperature ({reason})"
    return out


def tree_cpus(trace: Trace) -> list[float | None]:
    """CPUs the benchmark's process tree used between readings (None for the first)."""
    out: list[float | None] = [None]
    for prev, cur in zip(trace.readings, trace.readings[1:], strict=False):
        dt = cur.t - prev.t
        out.append((cur.tree_cpu_s - prev.tree_cpu_s) / dt if dt > 0 else None)
    return out


def _legend(ax: Any) -> None:
    """Beside the panel, never over the lines."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def _clock(ax: Any, trace: Trace, times: Sequence[float]) -> None:
    for i, cpu in enumerate(trace.cpus):
        ax.plot(times, [s.mhz[i] for s in trace.readings], label=f"cpu{cpu}")
    ax.set_ylabel("clock (MHz)")
    _legend(ax)


def _temperature(ax: Any, trace: Trace, times: Sequence[float]) -> None:
    ax.plot(times, [s.temp_c for s in trace.readings], color="tab:red", label="hottest sensor")
    ax.set_ylabel("temperature (C)")


def _cpu_use(ax: Any, trace: Trace, times: Sequence[float]) -> None:
    system = [s.system_busy_cpus for s in trace.readings]
    tree = tree_cpus(trace)
    ax.plot(times, system, color="tab:blue", label="whole system")
    ax.plot(times, tree, color="tab:green", label="benchmark's\nprocesses")
    ax.set_ylabel("busy CPUs")
    top = max([1.0, len(trace.cpus), *(v for v in (*system, *tree) if v is not None)])
    ax.set_ylim(0, top * 1.1)
    _legend(ax)


def _steal(ax: Any, trace: Trace, times: Sequence[float]) -> None:
    ax.plot(times, [s.steal_pct for s in trace.readings], color="tab:purple")
    top = max((s.steal_pct for s in trace.readings if s.steal_pct is not None), default=0.0)
    ax.set_ylim(0, max(5.0, top * 1.1))
    ax.set_ylabel("steal (% CPU)")


def _memory(ax: Any, trace: Trace, times: Sequence[float]) -> None:
    ax.plot(times, [s.mem_used / MIB if s.mem_used is not None else None
                    for s in trace.readings], color="tab:brown", label="memory")
    ax.plot(times, [s.swap_used / MIB if s.swap_used is not None else None
                    for s in trace.readings], color="tab:gray", label="swap")
    ax.set_ylabel("in use (MiB)")
    ax.set_ylim(bottom=0)
    _legend(ax)


Panel = Callable[[Any, Trace, Sequence[float]], None]


def _has(trace: Trace, read: Callable[[Reading], object]) -> bool:
    return any(read(s) is not None for s in trace.readings)


def panels(trace: Trace) -> list[tuple[str, Panel]]:
    """The panels with data, in order: clock, temperature, CPU use, steal, memory."""
    gone = missing(trace)
    chosen: list[tuple[str, Panel]] = []
    if "clock" not in gone:
        chosen.append(("clock", _clock))
    if "temperature" not in gone:
        chosen.append(("temperature", _temperature))
    chosen.append(("cpu", _cpu_use))
    if _has(trace, lambda s: s.steal_pct):
        chosen.append(("steal", _steal))
    if _has(trace, lambda s: s.mem_used):
        chosen.append(("memory", _memory))
    return chosen


def figure(plt: Any, trace: Trace, title: str) -> Any:
    """The figure of :func:`panels`, under-load spans shaded, what is missing said below."""
    times = [s.t for s in trace.readings]
    chosen = panels(trace)
    fig, axes = plt.subplots(len(chosen), 1, sharex=True, squeeze=False,
                             figsize=(9, 1.6 * len(chosen) + 1.4))
    flags = under_load(trace)
    for ax, (_, draw) in zip(axes[:, 0], chosen, strict=True):
        draw(ax, trace, times)
        for j, loaded in enumerate(flags):
            if loaded and j > 0:
                ax.axvspan(times[j - 1], times[j], color="0.88", zorder=0)
        ax.grid(True, linewidth=0.3)
    axes[-1, 0].set_xlabel("seconds since the sampler started (shaded: under load)")
    axes[0, 0].set_title("\n".join(textwrap.wrap(title, 100)), fontsize=9)
    gone = missing(trace)
    note = "\n".join(textwrap.wrap("not sampled: " + "; ".join(gone.values()), 130)) \
        if gone else ""
    height = fig.get_size_inches()[1]
    bottom = (0.14 * (note.count("\n") + 1) + 0.08) / height if note else 0.0
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, color="0.3", va="bottom", ha="left")
    fig.tight_layout(rect=(0, bottom, 1, 1))
    return fig
