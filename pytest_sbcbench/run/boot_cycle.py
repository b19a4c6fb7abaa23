"""One boot after another (``--sbc-boots N`` or ``auto``): each boot planned, written and
rebooted out of.

A boot is a value (:class:`.boot.RunBoot`) that this module returns and the session installs
(:meth:`.session.Session.install`); nothing here writes the session.  A boot's plan
(:func:`plan_suite`): m for Holm's first step, the candidate with its earlier
boots (:mod:`.candidate`) and the label's boot plan (:func:`label_plan`: which boots are looks
and what each spends of the error rates, fixed at the label's first run and recorded with
its sessions in the history).  Between boots (:func:`next_boot`): this boot's outputs are
written (results ``NAME.bootI.json``, history, baseline save), the lab board is rebooted (a new
boot id, checked by the lab), its baseline is reloaded and the next boot planned.  Under
``--sbc-boots auto`` :func:`auto_outcome` says after each boot whether the gate is decided (a
regression, or every metric decided), which ends the boots early."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SysrootError
from .boot import RunBoot

if TYPE_CHECKING:
    from ..judge.candidates import Candidate
    from ..judge.looks import LabelPlan
    from ..settings import Settings
    from .recorder import FarBoot
    from .session import Session


def budget_of(settings: Settings) -> int:
    """``--sbc-boots-budget``, else the default budget of an every-boot plan."""
    from ..judge.looks import DEFAULT_BOOT_BUDGET

    return settings.boots_budget or DEFAULT_BOOT_BUDGET


def boots_of(run: Session) -> int:
    """The boots this run may measure: on a lab, ``--sbc-boots N``, or ``auto``'s budget (it
    may stop earlier); else 1 (without a lab, ``--sbc-boots`` plans boots recorded by hand,
    each run one of them)."""
    if run.lab is None:
        return 1
    if run.settings.boots_auto:
        return run.settings.boots or budget_of(run.settings)  # set_boots: where it stopped
    return run.settings.boots or 1


def with_boots(run: Session, boots: int) -> RunBoot:
    """``--sbc-boots auto`` on a lab: this boot, measuring ``boots`` boots from now on (the
    budget at the start, the boot it stopped at once decided), so the last boot is written as
    the last."""
    settings = dataclasses.replace(run.settings, boots=boots)
    return dataclasses.replace(current_boot(run),
                               target=dataclasses.replace(run.target, settings=settings))


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


def current_boot(run: Session) -> RunBoot:
    """The boot the session has installed, as a value."""
    recorder = run.recorder
    return RunBoot(run.boot, tuple(run.tests), run.target, run.lookup, run.baseline,
                recorder.against, recorder.far_boot)


def plan_suite(run: Session, tests: Sequence[str]) -> RunBoot:
    """The run's current boot planned for ``tests`` (:func:`plan_boot`)."""
    return plan_boot(run, current_boot(run), tests)


def plan_boot(run: Session, boot: RunBoot, tests: Sequence[str]) -> RunBoot:
    """``boot`` planned for the collected ``tests``: what its verdicts are judged against (m,
    the candidate with its earlier boots and its label's boot plan, the board and baseline)."""
    from ..judge.verdict import JudgeContext, count_metrics
    from .candidate import candidate_for

    boot = dataclasses.replace(boot, tests=tuple(tests))
    try:
        board = boot.lookup.board
    except SysrootError:  # a host without /proc: nothing that needs the board runs
        return boot
    candidate = candidate_for(boot.target, board.name, run.notes)
    plan, note = label_plan(run, candidate, board.name)
    if note is not None and note not in run.notes:
        run.notes.append(note)
    against = JudgeContext(board.name, board, boot.baseline, boot.lookup.machine,
                           strict=boot.target.settings.strict, limits=run.registry.limits(),
                           candidate=dataclasses.replace(candidate, plan=plan),
                           n_metrics=count_metrics(boot.baseline, tests))
    return dataclasses.replace(boot, against=against, far_boot=_far_boot(boot))


def _far_boot(boot: RunBoot) -> FarBoot | None:
    """Saving a baseline: a regression against the boots of the same reference is a far boot
    (recorded and reported by the save), not a failed test."""
    settings = boot.target.settings
    if not settings.save_baseline:
        return None
    from ..judge.saving import same_reference
    from .candidate import this_boot

    reference = {"label": settings.candidate, "kernel_release": this_boot(boot.target)[1]}
    return same_reference(boot.baseline, reference)


def is_last_boot(run: Session) -> bool:
    """This boot is the run's last: ``--sbc-boots N`` at N; ``auto`` once decided or at the
    budget (:func:`with_boots`)."""
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
    closing = run.recorder.close_preview()
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


def next_boot(run: Session) -> tuple[str, RunBoot]:
    """This boot written (the session told it is: :meth:`.session.Session.end_boot`), the
    board rebooted and the next boot planned: the line saying what this boot did, and the
    next boot for the session to install."""
    from . import baseline_io
    from .lab import after_reboot

    assert run.lab is not None  # more boots in one run are refused without a lab
    run.finish(collected=True, interrupted=False)
    line = boot_line(run)
    run.end_boot()  # this boot is written: a failed reboot must not write it again
    target, lookup = after_reboot(run.lab, run.target, run.lookup)
    baseline = baseline_io.load_for_run(target.settings, lookup.board.name)
    boot = plan_boot(run, RunBoot(run.boot + 1, (), target, lookup, baseline), run.tests)
    return line, boot


def boot_line(run: Session) -> str:
    """What one boot did: its tally, its results file and what was saved."""
    from ..report.tally import tally_line
    from ..report.terminal import results_line

    path = results_path(run)
    most = "at most " if run.settings.boots_auto else ""
    parts = [tally_line(run.recorder.results, label=f"boot {run.boot} of {most}{boots_of(run)}",
                        saving=run.settings.save_baseline)]
    parts += [results_line(path, run.outputs.unwritten.get("results JSON"))] \
        if path is not None else []
    parts += list(run.outputs.saved or ()) + list(run.notes[-1:])
    return "\n".join(parts)
