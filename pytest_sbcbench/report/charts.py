"""Fleet charts (extra ``plot``): linear axes only, because a log axis flatters small bars."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import fleet


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def chart_stem(name: str) -> str:
    """A file name stem inside the output folder, whatever ``name`` holds (board names come
    from results files): no separators, no leading dot, never empty."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_.")[:120] or "chart"


def _save(fig: Any, out: Path, name: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    stem = chart_stem(name)
    paths = [out / f"{stem}.png", out / f"{stem}.svg"]
    for path in paths:
        fig.savefig(path, dpi=100)
    return paths


def write_charts(entries: Sequence[fleet.FleetEntry], out: Path,
                 vs: str | None = None) -> list[Path]:
    """Compile ranking bars, crypto bars and gap-vs-control; [] without matplotlib."""
    plt = _plt()
    if plt is None:
        return []
    written: list[Path] = []
    for i, ((metric, _unit, _), group) in enumerate(sorted(
            ((k, g) for k, g in fleet.groups(entries).items() if len(g) > 2 and k[1] == "s"),
            key=lambda item: item[0][0])):
        rows = fleet.ranking(group)
        fig, ax = plt.subplots(figsize=(8, 0.4 * len(rows) + 1.5))
        ax.barh([f"{e.board} ({fleet.tool_label(e)})" for _, e, _ in rows][::-1],
                [e.value for _, e, _ in rows][::-1])
        ax.set_xlabel("seconds (linear axis; lower is better)")
        ax.set_title(f"{metric}: fleet ranking")
        fig.tight_layout()
        written += _save(fig, out, f"compile-ranking-{i}")
        plt.close(fig)
    for i, family in enumerate(fleet.crypto_families(entries).values()):
        if len(family) < 2:
            continue
        metrics = sorted(set.intersection(*(set(m) for m in family.values())))
        if not metrics:
            continue
        fig, ax = plt.subplots(figsize=(9, 4.5))
        width = 0.8 / len(family)
        for j, (board, values) in enumerate(sorted(family.items())):
            ax.bar([k + j * width for k in range(len(metrics))],
                   [values[m].value / 1e6 for m in metrics], width,
                   label=f"{board} ({fleet.tool_label(values[metrics[0]])})")
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(metrics))], metrics, rotation=30)
        ax.set_ylabel("MB/s (linear axis)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        written += _save(fig, out, f"crypto-{i}")
        plt.close(fig)
        written += _gap_chart(plt, family, out, i, vs)
    return written


def _gap_chart(plt: Any, family: dict[str, dict[str, fleet.FleetEntry]], out: Path, i: int,
               vs: str | None) -> list[Path]:
    reference = fleet.reference_board(family, vs)
    if reference is None:
        return []
    written = []
    for board in sorted(b for b in family if b != reference):
        rows = fleet.gaps(family, board, reference)
        control = next((r.gap for r in rows if r.metric == fleet.CONTROL), None)
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar([r.metric for r in rows], [r.gap for r in rows])
        if control:
            ax.axhline(control, linestyle="--", color="k",
                       label=f"{fleet.CONTROL} control {control:.1f}x (the core)")
            ax.legend()
        ax.set_ylabel(f"{reference} / {board} (linear axis)")
        ax.set_title(f"{board}: gap to {reference} vs the control")
        ax.tick_params(axis="x", rotation=30)
        fig.tight_layout()
        written += _save(fig, out, f"gap-{i}-{board}")
        plt.close(fig)
    return written
