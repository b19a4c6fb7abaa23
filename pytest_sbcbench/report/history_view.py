"""``sbcbench history show`` and ``history changes`` in the terminal and as JSON.

``show``: one measurement across labels, a line per label: boots, the mean of the boot means
with its 95% interval, the change from the previous label, the verdicts the label's results
got, and the incidents that start there.  ``changes``: one block per incident.  Every name
(board, label, metric, test id, incident id) comes from the store and is printed through
:func:`..judge.stored_names.shown`: a terminal escape sequence in a label is shown, never
sent."""

from __future__ import annotations

from collections.abc import Sequence

from ..judge.changes import Incident, Step
from ..judge.history_read import MetricHistory
from ..judge.label_levels import LabelLevel
from ..judge.stored_names import shown
from ..model import display
from ..words import counted

SHOW_SCHEMA = "sbcbench-history-show/1"
CHANGES_SCHEMA = "sbcbench-history-changes/1"


def _value(v: float | None, unit: str) -> str:
    if v is None:
        return "-"
    text, shown = display(v, unit)
    return f"{text} {shown}"


def _verdicts(level: LabelLevel) -> str:
    return ", ".join(f"{n} {shown(status)}" for status, n in level.verdicts) or "no verdict"


def show_text(series: MetricHistory, levels: Sequence[LabelLevel],
              incidents: Sequence[Incident]) -> str:
    starts = {i.first_bad: i for i in incidents if series.name in i.metrics}
    head = (f"{shown(series.board)}  {shown(series.name)} ({shown(series.unit)}, "
            f"{series.better} is better): "
            f"{counted(len(levels), 'label')}, boot means and their 95% interval")
    lines = [head]
    previous: float | None = None
    for lv in levels:
        interval = (f" [{_value(lv.interval[0], series.unit)} .. "
                    f"{_value(lv.interval[1], series.unit)}]") if lv.interval else ""
        move = f"  {100 * (lv.mean / previous - 1):+.2f}%" if lv.mean and previous else ""
        mark = f"  <- {shown(starts[lv.label].id)} ({starts[lv.label].state})" \
            if lv.label in starts else ""
        lines.append(f"  {shown(lv.label):12}  {counted(len(lv.boot_means), 'boot'):8}  "
                     f"{_value(lv.mean, series.unit)}{interval}{move}  ({_verdicts(lv)})"
                     f"{mark}")
        previous = lv.mean or previous
    return "\n".join(lines)


def show_json(series: MetricHistory, levels: Sequence[LabelLevel],
              incidents: Sequence[Incident]) -> dict[str, object]:
    return {"schema": SHOW_SCHEMA, "board": series.board, "metric": series.name,
            "unit": series.unit, "better": series.better,
            "labels": [lv.as_dict() for lv in levels],
            "incidents": [i.as_dict() for i in incidents if series.name in i.metrics]}


def _step_line(s: Step) -> str:
    low, high = s.ci_pct
    return (f"    {shown(s.metric)}: {s.change_pct:+.2f}% ({s.direction}; 95% CI {low:+.2f}% .. "
            f"{high:+.2f}%), {s.before_boots} boots of {counted(s.before_labels, 'label')} "
            f"before vs {s.after_boots} of {s.after_labels} after, p = {s.p_value:.2g} "
            f"(x{s.before_labels + s.after_labels} splits: {s.adjusted_p:.2g})"
            + (f"; may start at {', '.join(map(shown, s.range_labels))}"
               if len(s.range_labels) > 1
               else ""))


def changes_text(incidents: Sequence[Incident], boards: int) -> str:
    if not incidents:
        return f"no incident on {counted(boards, 'board')}"
    lines = []
    for i in incidents:
        lines.append(f"{shown(i.id)}  [{i.state}]  {shown(i.board)}: first bad label "
                     f"{shown(i.first_bad)}, last good label {shown(i.last_good)}, "
                     f"{counted(len(i.steps), 'metric')}")
        lines.extend(_step_line(s) for s in i.steps)
    open_ = sum(i.is_open for i in incidents)
    lines.append(f"{counted(len(incidents), 'incident')} ({open_} open) on "
                 f"{counted(boards, 'board')}")
    return "\n".join(lines)


def changes_json(incidents: Sequence[Incident], boards: Sequence[str]) -> dict[str, object]:
    from ..judge import changes, steps

    return {"schema": CHANGES_SCHEMA, "boards": list(boards),
            "method": {"propose": "apache-otava compute_change_points (window "
                                  f"{steps.WINDOW}, p <= {steps.CANDIDATE_P})",
                       "test": "two-sample t on boot means (the gate's), two-sided, "
                               f">= {changes.SIDE_LABELS} labels a side, <= "
                               f"{changes.MAX_SIDE}; Bonferroni over the splits tested",
                       "family": f"Holm across each board's tests at {changes.RATE}"},
            "incidents": [i.as_dict() for i in incidents]}
