"""Per-test sampler traces: CSV always, a PNG chart when matplotlib (extra ``plot``) is there."""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..fileio import write_atomic
from ..judge.telemetry import under_load
from ..model import Reading, Sensor, Trace
from ..words import counted


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
    """The trace as CSV, written atomically (:func:`..fileio.write_atomic`: a FIFO or a device
    in its place is refused, never opened and blocked on)."""
    flags = under_load(trace)
    with io.StringIO(newline="") as handle:
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
        return write_atomic(path, handle.getvalue().encode("utf-8"))


def read_csv(path: Path, unavailable: dict[str, str] | None = None) -> Trace:
    """A trace back from the CSV :func:`write_csv` wrote (to redraw its chart): the readings,
    the CPUs and sensors its header names; the interval is the median step between readings.
    What the CSV does not hold (max clocks, governors, busy CPU numbers) is unknown."""
    with path.open(newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    header = list(table[0]) if table else []
    cpus = tuple(int(h[3:-4]) for h in header if re.fullmatch(r"cpu\d+_mhz", h))
    sensors = tuple(Sensor(h.removeprefix("temp_c_"), "") for h in header
                    if h.startswith("temp_c_"))
    readings = tuple(Reading(
        float(row["t_s"]), tuple(_number(row[f"cpu{c}_mhz"]) for c in cpus),
        tuple(_number(row[f"temp_c_{s.name}"]) for s in sensors),
        _whole(row["mem_used_bytes"]), _whole(row["swap_used_bytes"]),
        float(row["tree_cpu_s"]), _number(row["system_busy_cpus"]), (),
        _number(row["steal_pct"])) for row in table)
    steps = sorted(b.t - a.t for a, b in itertools.pairwise(readings))
    interval = steps[len(steps) // 2] if steps else 1.0
    return Trace(interval, cpus, tuple(None for _ in cpus), tuple(None for _ in cpus), sensors,
                 readings, dict(unavailable or {}))


def _number(cell: str) -> float | None:
    return float(cell) if cell else None


def _whole(cell: str) -> int | None:
    return int(cell) if cell and cell != "None" else None


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _cells(values: tuple[float | None, ...]) -> list[str]:
    return [_cell(v) for v in values]


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
    """The trace chart (:mod:`.trace_figure`: the panels this machine had data for).

    Returns None when matplotlib is not installed (``pip install pytest-sbcbench[plot]``)."""
    from .trace_figure import figure

    plt = pyplot()
    if plt is None:
        return None
    fig = figure(plt, trace, title)
    try:
        return save_figure(fig, path, dpi=90)
    finally:
        plt.close(fig)


def save_figure(fig: Any, path: Path, dpi: int) -> Path:
    """``fig`` rendered in memory (the format from the suffix), then written atomically: a FIFO
    in its place is refused, and a reader never sees half a chart."""
    with io.BytesIO() as image:
        fig.savefig(image, format=path.suffix.lstrip(".") or "png", dpi=dpi)
        return write_atomic(path, image.getvalue())


def summary_line(folder: Path | None, written: Sequence[Path]) -> list[str]:
    """Where the traces went: one line, or none when no trace was asked for or written."""
    if folder is None or not written:
        return []
    csvs = sum(p.suffix == ".csv" for p in written)
    pngs = sum(p.suffix == ".png" for p in written)
    charts = f", {counted(pngs, 'PNG chart')}" if pngs else \
        ", no PNG charts (matplotlib is not installed: pip install 'pytest-sbcbench[plot]')"
    return [f"traces: {folder} ({csvs} CSV{charts})"]
