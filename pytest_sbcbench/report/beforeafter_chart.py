"""The before/after chart (extra ``plot``): one panel per metric, one bar per results file.

Like the side-by-side result graphs of the Phoronix Test Suite: each bar is a file's median
(named by :func:`.beforeafter.column_names`), its whisker the lowest to the highest run,
and the panel's title the metric, its unit and which way is better, with each later file
judged against the first as ``sbcbench compare`` judges it (change, interval, verdict).
Linear axes starting at 0, so bar lengths compare."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..model import DISPLAY_UNITS, Result, Verdict, display
from ..platform.board import BoardProfile
from . import beforeafter
from .charts import save
from .trace import pyplot

COLOURS = ("tab:gray", "tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown")


def _title(first: Result, cells: Sequence[Result | None], names: Sequence[str],
           judged: Sequence[dict[beforeafter.RowKey, Verdict]]) -> str:
    m = first.measurement
    shown = DISPLAY_UNITS.get(m.unit, (m.unit, 1.0))[0]
    head = f"{m.display_name} ({shown}, {m.better} is better)"
    moves = []
    for name, cell, verdicts in zip(names[1:], cells[1:], judged, strict=True):
        verdict = verdicts.get(beforeafter.row_key(cell)) if cell is not None else None
        if verdict is not None:
            moves.append(f"{name}: {beforeafter.change_text(cells[0], cell, verdict)}")
    return head + ("\n" + "\n".join(moves) if moves else "")


def _panel(ax: Any, first: Result, cells: Sequence[Result | None], names: Sequence[str],
           judged: Sequence[dict[beforeafter.RowKey, Verdict]]) -> None:
    factor = DISPLAY_UNITS.get(first.measurement.unit, ("", 1.0))[1]
    ys = list(range(len(cells)))[::-1]
    for y, cell, colour in zip(ys, cells, COLOURS * len(cells), strict=False):
        if cell is None:
            ax.text(0, y, "  not measured", va="center", fontsize=8, color="0.4")
            continue
        runs = [v * factor for v in cell.measurement.samples]
        median = cell.summary.median * factor
        ax.barh(y, median, color=colour, height=0.6,
                xerr=[[median - min(runs)], [max(runs) - median]], capsize=3)
        text, unit = display(cell.summary.median, cell.measurement.unit)
        ax.text(max(runs), y, f"  {text} {unit} (n={cell.summary.n})", va="center",
                fontsize=8)
    ax.set_yticks(ys, names, fontsize=8)
    ax.set_xlim(0, ax.get_xlim()[1] * 1.35)  # room for the value labels right of the bars
    ax.set_title(_title(first, cells, names, judged), fontsize=9, loc="left")


def write_chart(columns: Sequence[beforeafter.Column], out: Path,
                profiles: Mapping[str, BoardProfile]) -> list[Path]:
    """``before-after.png`` and ``.svg`` in ``out``; [] without matplotlib or metrics."""
    plt = pyplot()
    if plt is None or not beforeafter.rows(columns):
        return []
    fig = figure(plt, columns, profiles)
    written = save(fig, out, "before-after")
    plt.close(fig)
    return written


def figure(plt: Any, columns: Sequence[beforeafter.Column],
           profiles: Mapping[str, BoardProfile]) -> Any:
    """The figure: a panel per metric of :func:`.beforeafter.rows` (at least one)."""
    table = beforeafter.rows(columns)
    names = [c.name for c in columns]
    judged = beforeafter.verdicts(columns, profiles)
    height = 0.45 * len(columns) + 0.5 + 0.18 * len(columns)
    fig, axes = plt.subplots(len(table), 1, figsize=(9, height * len(table) + 0.8),
                             squeeze=False)
    for ax, (first, cells) in zip(axes[:, 0], table, strict=True):
        _panel(ax, first, cells, names, judged)
    axes[-1, 0].set_xlabel("median of runs, whisker lowest to highest run (linear axis)")
    fig.suptitle(f"{columns[0].loaded.board}: before/after, medians", fontsize=11)
    fig.tight_layout()
    return fig
