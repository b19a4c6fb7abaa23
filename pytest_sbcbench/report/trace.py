"""Per-test sampler traces: CSV always, a PNG chart when matplotlib (extra ``plot``) is there."""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..judge.telemetry import under_load
from ..model import Trace


def safe_name(nodeid: str) -> str:
    """A file name (without suffix) for a test id, unique per id and contained in its folder.

    ``benchmarks/test_crypto.py::test_cipher[aes-128-gcm]`` ->
    ``benchmarks_test_crypto.py_test_cipher_aes-128-gcm-<10 hex>``: a readable stem (no ``/``,
    no leading dot, at most 120 characters) and a hash of the full id, so ``a/b`` and ``a_b``,
    or two long ids that share their first 120 characters, never write the same file."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid)[:120].strip("_.") or "test"
    digest = hashlib.sha256(nodeid.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{stem}-{digest}"


def write_csv(trace: Trace, path: Path) -> Path:
    flags = under_load(trace)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["t_s", *(f"cpu{c}_mhz" for c in trace.cpus),
                         *(f"temp_c_{s.name}" for s in trace.sensors),
                         "mem_used_bytes", "swap_used_bytes", "tree_cpu_s", "system_busy_cpus",
                         "steal_pct", "under_load"])
        for reading, loaded in zip(trace.readings, flags, strict=True):
            writer.writerow([f"{reading.t:.3f}", *_cells(reading.mhz), *_cells(reading.temps_c),
                             reading.mem_used, reading.swap_used, f"{reading.tree_cpu_s:.3f}",
                             _cell(reading.system_busy_cpus), _cell(reading.steal_pct),
                             int(loaded)])
    return path


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _cells(values: tuple[float | None, ...]) -> list[str]:
    return [_cell(v) for v in values]


def missing(trace: Trace) -> dict[str, str]:
    """The panels this machine had nothing to draw in, with the label saying so (a VM without
    cpufreq, a board without thermal zones): an empty panel must never look like a reading."""
    out = {}
    if not any(v is not None for s in trace.readings for v in s.mhz):
        reason = trace.unavailable.get("cpufreq") or "no cpufreq on this machine"
        out["clock"] = f"clock not available ({reason})"
    if not any(s.temp_c is not None for s in trace.readings):
        reason = trace.unavailable.get("thermal") or "no thermal sensor on this machine"
        out["temperature"] = f"temperature not available ({reason})"
    return out


def figure(plt: Any, trace: Trace, title: str) -> Any:
    """The two-panel figure: clock per CPU, hottest sensor; under-load spans shaded; a panel
    with no data carries a centred "not available" label."""
    times = [s.t for s in trace.readings]
    fig, (clock_ax, temp_ax) = plt.subplots(2, 1, sharex=True, figsize=(9, 5))
    for i, cpu in enumerate(trace.cpus):
        clock_ax.plot(times, [s.mhz[i] for s in trace.readings], label=f"cpu{cpu}")
    temp_ax.plot(times, [s.temp_c for s in trace.readings], color="tab:red")
    flags = under_load(trace)
    for ax in (clock_ax, temp_ax):
        for j, loaded in enumerate(flags):
            if loaded and j > 0:
                ax.axvspan(times[j - 1], times[j], color="0.85", zorder=0)
    gone = missing(trace)
    for name, ax in (("clock", clock_ax), ("temperature", temp_ax)):
        if name in gone:
            ax.text(0.5, 0.5, gone[name], transform=ax.transAxes, ha="center", va="center",
                    fontsize=10, color="0.3")
    clock_ax.set_ylabel("clock (MHz)")
    temp_ax.set_ylabel("temperature (C)")
    temp_ax.set_xlabel("seconds (shaded: under load)")
    clock_ax.set_title(title, fontsize=9)
    if trace.cpus and "clock" not in gone:
        clock_ax.legend(fontsize=7, ncol=4)
    fig.tight_layout()
    return fig


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or None without the ``plot`` extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def write_png(trace: Trace, path: Path, title: str) -> Path | None:
    """Clock and temperature over time on linear axes, under-load spans shaded.

    Returns None when matplotlib is not installed (``pip install pytest-sbcbench[plot]``)."""
    plt = pyplot()
    if plt is None:
        return None
    fig = figure(plt, trace, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def summary_line(folder: Path | None, written: Sequence[Path]) -> list[str]:
    """Where the traces went: one line, or none when no trace was asked for or written."""
    if folder is None or not written:
        return []
    csvs = sum(p.suffix == ".csv" for p in written)
    pngs = sum(p.suffix == ".png" for p in written)
    charts = f", {pngs} PNG charts" if pngs else ", no PNG charts (pip install " \
        "'pytest-sbcbench[plot]')"
    return [f"traces: {folder} ({csvs} CSV{charts})"]
