"""``--sbc-report DIR``: this run's board placed among the published ones, at the end of the
run (plain data in; the fleet itself is loaded by :mod:`.fleet`)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ..fileio import write_atomic
from ..platform.board import BoardProfile
from ..words import counted
from .charts import no_charts_reason, write_charts
from .fleet import load_fleet
from .markdown import render
from .results import write_json_atomic


def shipped_published() -> list[Path]:
    """The published fleet shipped inside the package (for installs without the repository)."""
    folder = resources.files("pytest_sbcbench") / "published"
    if not folder.is_dir():
        return []
    return sorted(Path(str(entry)) for entry in folder.iterdir() if entry.name.endswith(".json"))


def write(out: Path, doc: dict[str, Any], baselines: Path,
          profiles: Mapping[str, BoardProfile]) -> str:
    """Write ``report.md`` and charts for ``doc`` among the published boards; returns the note
    saying where."""
    out.mkdir(parents=True, exist_ok=True)
    this_run = out / "this-run.json"
    write_json_atomic(this_run, doc)
    published = sorted((baselines / "published").glob("*.json")) or shipped_published()
    entries = load_fleet([*published, this_run])
    write_atomic(out / "report.md", render(entries, dict(profiles)).encode("utf-8"))
    charts = write_charts(entries, out)
    drawn = f"{len(charts)} chart files" if charts else f"no charts: {no_charts_reason(entries)}"
    machines = counted(len(published), "published machine")
    return f"fleet report: {out / 'report.md'} ({machines}, {drawn})"
