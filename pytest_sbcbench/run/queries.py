"""What the plugin asks of a session, answered here so that ``plugin/`` stays glue: the gate's
preflight of the selected tests, the lines and values of the terminal summary, and the run's
exit status (interrupted, an output lost, a regression at the end, gate mode's cannot-gate and
undecided).  Each reads the session; none writes its
attributes (the preflight and the exit status add their lines to the run's notes)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model import Result
    from ..workload import Workload
    from .session import Session

OK, TESTS_FAILED, INTERRUPTED, USAGE_ERROR = 0, 1, 2, 4  # pytest's exit codes


def identity_preflight(run: Session, tests: Sequence[tuple[str, Workload | None]]) -> list[str]:
    """Before measuring: gate mode refuses tests it cannot judge (an error); any other run
    gets the lines warning of tests already known incomparable (:func:`.gate.preflight`); the
    lines also go to the run's notes."""
    from ..judge.baseline_store import baseline_path
    from .gate import preflight

    settings = run.settings
    found = preflight(settings, baseline_path(settings.baselines, run.board.name),
                      run.baseline, run.lookup.machine, run.context, tests)
    run.notes.extend(found)
    return found


def board_lost(run: Session) -> str | None:
    """Why the run's lab board stopped answering (its executor says), or None."""
    if not run.active or run.lab is None:
        return None
    lost = getattr(run.target.executor, "lost", None)
    return lost if isinstance(lost, str) else None


@dataclasses.dataclass(frozen=True)
class SummaryLines:
    """The terminal summary's values, in :func:`..report.terminal.write_summary`'s order."""

    board: str
    title: str
    results: Sequence[Result]
    extra: list[str]
    results_path: Path | None
    saved: Sequence[str] | None
    suite: str | None
    saving: bool
    results_unwritten: str | None = None  # why the results file could not be written


def summary(run: Session) -> SummaryLines:
    """The table's results, the lines under it (findings, tools not sampled, real clock,
    notes, traces written, outputs lost) and where the results went."""
    from ..report import terminal
    from ..report.trace import summary_line
    from .boot_cycle import results_path

    recorder = run.recorder
    extra = terminal.extra_lines(recorder.findings, recorder.results, recorder.unavailable,
                                 run.preflight.real_clock, run.notes)
    extra += summary_line(run.settings.trace_dir, recorder.trace_files)
    extra += [f"ERROR: {failure} (exit 4: the other outputs were written)"
              for failure in run.outputs.failed]
    closing = run.closing
    suite = closing.suite.detail if closing and closing.suite.status == "regression" else None
    return SummaryLines(run.board.name, run.board.title, recorder.results, extra,
                        results_path(run), run.outputs.saved, suite, run.settings.save_baseline,
                        run.outputs.unwritten.get("results JSON"))


def exit_status(run: Session, status: int, failed: int, late: bool) -> int:
    """The run's exit status, given pytest's (``status``, ``failed`` tests) and whether an
    interrupt arrived while finishing (``late``); the reason goes to the run's notes."""
    from .gate import GATE_UNDECIDED, cannot_gate, undecided

    settings = run.settings
    if late:
        return INTERRUPTED
    if run.outputs.failed:  # an output was lost: never a green run (the summary says which)
        return USAGE_ERROR
    if run.closing is not None and run.closing.failed and not settings.save_baseline:
        run.notes.extend(closing_lines(run))
        return TESTS_FAILED
    if settings.gate and status == OK:
        left = undecided(run.recorder.results)
        if left:
            run.notes.append(left)
            return GATE_UNDECIDED
    elif status == TESTS_FAILED and not settings.save_baseline:
        where = run.baseline.path if run.baseline is not None else None
        refused = cannot_gate(run.recorder.results, failed, settings.allow_incomparable,
                              settings.gate, where)
        if refused:  # every failure a result nothing judges: no regression, so never exit 1
            run.notes.append(refused)
            return USAGE_ERROR
    return status


def closing_lines(run: Session) -> list[str]:
    """What the end of the run added: regressions by Holm's later steps, the suite mean."""
    closing = run.closing
    assert closing is not None
    lines = [f"regression at the end of the run (Holm's later steps; its test had passed): "
             f"{run.recorder.results[i].test}" for i in closing.added]
    if closing.suite.status == "regression":
        lines.append(f"regression: {closing.suite.detail}")
    return lines
