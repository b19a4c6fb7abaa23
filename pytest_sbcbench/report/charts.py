"""Fleet charts (extra ``plot``): every chart has a title naming the measurement (workload,
block size, threads), its unit and axis kind, and a legend beside the bars, never over them.

Axes are linear unless asked (``log=True``) or the values span :data:`LOG_SPAN` times or
more (``log=None``, the default): on a linear axis a board 100x slower is an invisible bar,
and the axis label says which kind it is."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..model import Identity
from ..words import counted
from . import fleet
from .trace import pyplot as _plt
from .trace import save_figure

LOG_SPAN = 100.0
LABELLED_BOARDS = 4  # more boards than this: bars too narrow for their values
MATPLOTLIB_MISSING = "matplotlib is not installed (pip install 'pytest-sbcbench[plot]')"


def chart_stem(name: str) -> str:
    """A file name stem inside the output folder, whatever ``name`` holds (board names come
    from results files): no separators, no leading dot, never empty."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_.")[:120] or "chart"


def save(fig: Any, out: Path, name: str) -> list[Path]:
    """``name``.png and .svg in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    stem = chart_stem(name)
    return [save_figure(fig, out / f"{stem}.{kind}", dpi=100) for kind in ("png", "svg")]


def log_axis(values: Iterable[float], log: bool | None) -> bool:
    """``log`` when given, else whether the positive values span LOG_SPAN times or more."""
    if log is not None:
        return log
    shown = [v for v in values if v > 0]
    return bool(shown) and max(shown) / min(shown) >= LOG_SPAN


def log_ticks(axis: Any) -> None:
    """A log axis read as plain numbers at 1, 2 and 5 of each decade (``20``, not ``10^1``)."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def scale_axis(ax: Any, which: str, values: Iterable[float], log: bool | None) -> bool:
    """Put ``ax``'s ``which`` axis ("x" or "y") on a log scale read as plain numbers when
    :func:`log_axis` says so; whether it did."""
    logged = log_axis(values, log)
    if logged:
        getattr(ax, f"set_{which}scale")("log")
        log_ticks(getattr(ax, f"{which}axis"))
    return logged


def axis_kind(log: bool) -> str:
    return "log axis" if log else "linear axis"


def measured(identity: Identity) -> str:
    """What a chart's numbers are, in words: ``openssl speed -evp, 16384-byte blocks, 1
    thread``; the other keys (commit, crates...) as ``key=value``."""
    values = identity.as_dict()
    parts = [str(values.pop("workload"))] if "workload" in values else []
    if "block_bytes" in values:
        parts.append(f"{values.pop('block_bytes')}-byte blocks")
    if "threads" in values:
        threads = values.pop("threads")
        parts.append(f"{threads} thread{'' if threads == 1 else 's'}")  # any identity value
    values.pop("algorithm", None)
    parts += [f"{k}={v}" for k, v in sorted(values.items()) if v is not None]
    return textwrap.fill(", ".join(parts), 90)


def no_charts_reason(entries: Sequence[fleet.FleetEntry]) -> str:
    """Why :func:`write_charts` wrote nothing: matplotlib missing, or nothing to compare."""
    if _plt() is None:
        return MATPLOTLIB_MISSING
    boards = len({e.board for e in entries})
    return (f"fleet charts need the same measurement from at least two boards (compile "
            f"rankings three); these files hold {counted(boards, 'board')}")


def _compile_charts(plt: Any, entries: Sequence[fleet.FleetEntry], out: Path,
                    log: bool | None) -> list[Path]:
    written: list[Path] = []
    for i, ((metric, _unit, identity), group) in enumerate(sorted(
            ((k, g) for k, g in fleet.groups(entries).items() if len(g) > 2 and k[1] == "s"),
            key=lambda item: item[0][0])):
        rows = fleet.ranking(group)
        values = [e.value for _, e, _ in rows][::-1]
        fig, ax = plt.subplots(figsize=(9, 0.4 * len(rows) + 1.8))
        ax.barh([f"{e.board} ({fleet.tool_label(e)})" for _, e, _ in rows][::-1], values)
        logged = scale_axis(ax, "x", values, log)
        ax.set_xlabel(f"seconds, mean of runs ({axis_kind(logged)}; lower is better)")
        ax.set_title(f"{metric}: fleet ranking\n{measured(identity)}", fontsize=10)
        fig.tight_layout()
        written += save(fig, out, f"compile-ranking-{i}")
        plt.close(fig)
    return written


def crypto_figure(plt: Any, family: dict[str, dict[str, fleet.FleetEntry]],
                  identity: Identity, log: bool | None) -> Any:
    """Grouped bars: a group per metric both boards have, a bar per board; None without one."""
    metrics = sorted(set.intersection(*(set(m) for m in family.values())))
    if not metrics:
        return None
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(family)
    values = [v.value / 1e6 for m in family.values() for v in m.values()]
    for j, (board, by_metric) in enumerate(sorted(family.items())):
        shown = [by_metric[m].value / 1e6 for m in metrics]
        bars = ax.bar([k + j * width for k in range(len(metrics))], shown, width,
                      label=f"{board} ({fleet.tool_label(by_metric[metrics[0]])})")
        if len(family) <= LABELLED_BOARDS:  # values on the bars while they fit
            ax.bar_label(bars, labels=[f"{v:,.0f}" if v >= 100 else f"{v:.3g}" for v in shown],
                         fontsize=6, padding=1)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(metrics))], metrics, rotation=30)
    logged = scale_axis(ax, "y", values, log)
    ax.set_ylabel(f"MB/s, mean of runs ({axis_kind(logged)}; higher is better)")
    ax.set_title(f"crypto throughput: {measured(identity)}", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    return fig


def write_charts(entries: Sequence[fleet.FleetEntry], out: Path, vs: str | None = None,
                 log: bool | None = None) -> list[Path]:
    """Compile ranking bars, crypto bars and gap-vs-control; [] without matplotlib."""
    plt = _plt()
    if plt is None:
        return []
    written = _compile_charts(plt, entries, out, log)
    for i, (identity, family) in enumerate(fleet.crypto_families(entries).items()):
        if len(family) < 2:
            continue
        fig = crypto_figure(plt, family, identity, log)
        if fig is not None:
            written += save(fig, out, f"crypto-{i}")
            plt.close(fig)
        written += _gap_chart(plt, family, identity, out, i, vs)
    return written


def _gap_chart(plt: Any, family: dict[str, dict[str, fleet.FleetEntry]], identity: Identity,
               out: Path, i: int, vs: str | None) -> list[Path]:
    reference = fleet.reference_board(family, vs)
    if reference is None:
        return []
    written = []
    for board in sorted(b for b in family if b != reference):
        rows = fleet.gaps(family, board, reference)
        control = next((r.gap for r in rows if r.metric == fleet.CONTROL), None)
        fig, ax = plt.subplots(figsize=(9, 4.5))
        ax.bar([r.metric for r in rows], [r.gap for r in rows])
        if control:
            ax.axhline(control, linestyle="--", color="k",
                       label=f"{fleet.CONTROL} control {control:.1f}x (the core)")
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      borderaxespad=0)
        ax.set_ylabel(f"times faster: {reference} / {board}\n(means, linear axis)")
        ax.set_title(f"{board}: gap to {reference} vs the control\n{measured(identity)}",
                     fontsize=10)
        ax.tick_params(axis="x", rotation=30)
        fig.tight_layout()
        written += save(fig, out, f"gap-{i}-{board}")
        plt.close(fig)
    return written
