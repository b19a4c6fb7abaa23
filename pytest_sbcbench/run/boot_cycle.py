"""One boot after another (``--sbc-boots N`` or ``auto``): each boot planned, written and
rebooted out of.

A boot's plan (:func:`plan_suite`): m for Holm's first step, the candidate with its earlier
boots (:mod:`.candidate`) and the label's boot plan (:func:`label_plan`: which boots are looks
and the share of the error budget each spends, fixed at the label's first run and recorded with
its sessions in the history).  Between boots (:func:`next_boot`): this boot's outputs are
written (results ``NAME.bootI.json``, history, baseline save), the lab board is rebooted (a new
boot id, checked by the lab), its baseline is reloaded and the next boot planned.  Under
``--sbc-boots auto`` :func:`auto_outcome` says after each boot whether the gate is decided (a
regression, or every metric decided), which ends the boots early."""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SysrootError

if TYPE_CHECKING:
    from ..judge.candidates import Candidate
    from ..judge.looks import LabelPlan
    from ..settings import Settings
    from .session import Session


def budget_of(settings: Settings) -> int:
    """``--sbc-boots-budget``, else the default budget of an every-boot plan."""
    from ..judge.looks import DEFAULT_BOOT_BUDGET

    return settings.boots_budget or DEFAULT_BOOT_BUDGET


def boots_of(run: Session) -> int:
    """The boots this run may measure: ``--sbc-boots N``; ``auto`` on a lab, its budget (it
    may stop earlier); else 1."""
    if run.settings.boots_auto and run.lab is not None:
        return run.settings.boots or budget_of(run.settings)  # set_boots: where it stopped
    return run.settings.boots or 1


def set_boots(run: Session, boots: int) -> None:
    """``--sbc-boots auto`` on a lab: the boots this run measures from now on (the budget at
    the start, the boot it stopped at once decided), so the last boot is written as the last."""
    run.target = dataclasses.replace(run.target,
                                     settings=dataclasses.replace(run.settings, boots=boots))


def settings_plan(settings: Settings) -> LabelPlan:
    """The plan this run's options ask for: ``--sbc-boots N``: one look, at boot N, with the
    whole budget; otherwise (``auto``, or boots recorded by hand) every boot a look."""
    from ..judge.looks import LabelPlan

    if settings.boots is not None and not settings.boots_auto:
        return LabelPlan(settings.boots, every_boot=False)
    return LabelPlan(budget_of(settings), every_boot=True)


def label_plan(run: Session, candidate: Candidate, board: str) -> tuple[LabelPlan, str | None]:
    """The label's plan: as recorded with its first session in the history, else (no earlier
    session) this run's; a run judged alone, one boot.  Also the note when this run's options
    ask for another plan than the one the label has."""
    from ..judge import history
    from ..judge.looks import ONE_BOOT, LabelPlan
    from .candidate import keeps_history

    settings = run.settings
    if settings.save_baseline or not keeps_history(settings) or candidate.label is None:
        return ONE_BOOT, None
    asked = settings_plan(settings)
    if not candidate.earlier:
        return asked, None
    path = history.history_path(settings.baselines)
    recorded = LabelPlan.from_dict(history.label_plan(path, board, candidate.label))
    plan = recorded or LabelPlan(budget_of(settings), every_boot=True)
    given = settings.boots is not None or settings.boots_auto or settings.boots_budget
    if plan == asked or not given:
        return plan, None
    return plan, (f"label {candidate.label}: its boot plan ({plan.describe()}) was fixed at its "
                  f"first run; this run's --sbc-boots options ({asked.describe()}) do not "
                  "change it (give a new --sbc-candidate for a new plan)")


def plan_suite(run: Session, tests: Sequence[str]) -> None:
    from .candidate import candidate_for

    run.tests = list(tests)
    try:
        board = run.board.name
    except SysrootError:  # a host without /proc: nothing that needs the board runs
        return
    candidate = candidate_for(run.target, board, run.notes)
    plan, note = label_plan(run, candidate, board)
    if note is not None and note not in run.notes:
        run.notes.append(note)
    run.recorder.plan_suite(run.baseline, tests, dataclasses.replace(candidate, plan=plan))
    if run.settings.save_baseline:
        from ..judge.saving import same_reference
        from .candidate import this_boot

        reference = {"label": run.settings.candidate, "kernel_release": this_boot(run.target)[1]}
        run.recorder.far_boot = same_reference(run.baseline, reference)


def is_last_boot(run: Session) -> bool:
    """This boot is the run's last: ``--sbc-boots N`` at N; ``auto`` once decided or at the
    budget (:func:`set_boots`)."""
    return run.boot >= boots_of(run)


def results_path(run: Session) -> Path | None:
    """This boot's results file: ``--sbc-results``, or ``NAME.bootI.json`` beside it for a boot
    before the last (:func:`.outputs.boot_results_path`)."""
    from .outputs import boot_results_path

    return boot_results_path(run.settings, run.boot, is_last_boot(run))


def auto_outcome(run: Session) -> str | None:
    """Under ``--sbc-boots auto``: why the boots end after this one (a regression, found by a
    test or at the end of the look; or every metric decided), else None."""
    results = run.recorder.results
    judged = [r for r in results if r.verdict.evidence is not None]
    closing = run.recorder.close_preview(run.judged(), run.settings.strict)
    if any(r.verdict.status == "regression" for r in results) or closing.failed:
        return "decided: a regression"
    if judged and all(r.verdict.status in ("pass", "improvement") for r in judged):
        return "decided: every metric"
    return None


def auto_line(run: Session, outcome: str | None) -> str:
    """The line that says how ``--sbc-boots auto`` ended: decided, or stopped at its budget."""
    budget = boots_of(run)
    if outcome is not None:
        return (f"--sbc-boots auto {outcome} after candidate boot {run.boot} (budget "
                f"{budget})")
    return (f"--sbc-boots auto stopped at its budget of {budget} boots, undecided (raise "
            "--sbc-boots-budget at a new label's first run, or quiet the board)")


def next_boot(run: Session) -> str:
    """This boot written, the board rebooted, the next boot planned; the line saying so."""
    from . import baseline_io
    from .lab import after_reboot
    from .outputs import Outputs

    assert run.lab is not None  # more boots in one run are refused without a lab
    run.finish(collected=True, interrupted=False)
    line = boot_line(run)
    run.recorder.new_boot()  # this boot is written: a failed reboot must not write it again
    run.outputs = Outputs(_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                          failed=run.outputs.failed)
    run.between_boots = True
    run.target, run.lookup = after_reboot(run.lab, run.target, run.lookup)
    run.baseline = baseline_io.load_for_run(run.settings, run.board.name)
    run.boot += 1
    plan_suite(run, run.tests)
    run.between_boots = False
    return line


def boot_line(run: Session) -> str:
    """What one boot did: its tally, its results file and what was saved."""
    from ..report.tally import tally_line

    path = results_path(run)
    most = "at most " if run.settings.boots_auto else ""
    parts = [tally_line(run.recorder.results, label=f"boot {run.boot} of {most}{boots_of(run)}",
                        saving=run.settings.save_baseline)]
    parts += [f"results JSON: {path}"] if path is not None else []
    parts += list(run.outputs.saved or ()) + list(run.notes[-1:])
    return "\n".join(parts)
