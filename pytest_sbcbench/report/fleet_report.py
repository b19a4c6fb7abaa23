"""``--sbc-report DIR``: this run's board among the published ones, at the end of the run."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .charts import write_charts
from .fleet import load_fleet
from .markdown import render
from .results import write_json_atomic

if TYPE_CHECKING:
    from ..state import RunState


def shipped_published() -> list[Path]:
    """The published fleet shipped inside the package (for installs without the repository)."""
    folder = resources.files("pytest_sbcbench") / "published"
    if not folder.is_dir():
        return []
    return sorted(Path(str(entry)) for entry in folder.iterdir() if entry.name.endswith(".json"))


def write(state: RunState, doc: dict[str, Any]) -> None:
    out = state.settings.report_dir
    assert out is not None
    out.mkdir(parents=True, exist_ok=True)
    this_run = out / "this-run.json"
    write_json_atomic(this_run, doc)
    published = sorted((state.settings.baselines / "published").glob("*.json")) or \
        shipped_published()
    entries = load_fleet([*published, this_run])
    (out / "report.md").write_text(render(entries, state.profiles()))
    charts = write_charts(entries, out)
    drawn = f"{len(charts)} chart files" if charts else "no charts: pip install " \
        "'pytest-sbcbench[plot]'"
    state.notes.append(f"fleet report: {out / 'report.md'} ({len(published)} published "
                       f"machines, {drawn})")
