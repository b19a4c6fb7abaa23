"""``--sbc-report DIR``: this run's board among the published ones, at the end of the run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..platform.board import builtin_profiles, load_profiles, merge
from .charts import write_charts
from .fleet import load_fleet
from .markdown import render
from .results import write_json_atomic

if TYPE_CHECKING:
    from ..state import RunState


def write(state: RunState, doc: dict[str, Any]) -> None:
    out = state.settings.report_dir
    assert out is not None
    out.mkdir(parents=True, exist_ok=True)
    this_run = out / "this-run.json"
    write_json_atomic(this_run, doc)
    published = sorted((state.settings.baselines / "published").glob("*.json"))
    entries = load_fleet([*published, this_run])
    profiles = merge([*builtin_profiles(), *load_profiles(state.settings.baselines / "boards")])
    (out / "report.md").write_text(render(entries, profiles))
    charts = write_charts(entries, out)
    state.notes.append(f"fleet report: {out / 'report.md'} ({len(published)} published machines,"
                       f" {len(charts)} chart files)")
