"""One boot after another (``--sbc-boots N``): each boot planned, written and rebooted out of.

A boot's plan (:func:`plan_suite`): m for Holm's first step, the candidate with its earlier
boots (:mod:`.candidate`), and the candidate boots still to come.  Between boots
(:func:`next_boot`): this boot's outputs are written (results ``NAME.bootI.json``, history,
baseline save), the lab board is rebooted (a new boot id, checked by the lab), its baseline is
reloaded and the next boot planned."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SysrootError

if TYPE_CHECKING:
    from .session import Session


def boots_of(run: Session) -> int:
    """The boots this run measures (``--sbc-boots``, else 1)."""
    return run.settings.boots or 1


def plan_suite(run: Session, tests: Sequence[str]) -> None:
    from .candidate import candidate_for

    run.tests = list(tests)
    boots_left = 0 if run.settings.save_baseline else boots_of(run) - run.boot
    try:
        board = run.board.name
    except SysrootError:  # a host without /proc: nothing that needs the board runs
        return
    run.recorder.plan_suite(run.baseline, tests, candidate_for(run.target, board, run.notes),
                            boots_left)
    if run.settings.save_baseline:
        from ..judge.saving import same_reference
        from .candidate import this_boot

        reference = {"label": run.settings.candidate, "kernel_release": this_boot(run.target)[1]}
        run.recorder.far_boot = same_reference(run.baseline, reference)


def results_path(run: Session) -> Path | None:
    """This boot's results file (:func:`.outputs.boot_results_path`)."""
    from .outputs import boot_results_path

    return boot_results_path(run.settings, run.boot)


def next_boot(run: Session) -> str:
    """This boot written, the board rebooted, the next boot planned; the line saying so."""
    from . import baseline_io
    from .lab import after_reboot
    from .outputs import Outputs

    assert run.lab is not None  # --sbc-boots is refused without a lab
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
    parts = [tally_line(run.recorder.results, label=f"boot {run.boot} of {boots_of(run)}",
                        saving=run.settings.save_baseline)]
    parts += [f"results JSON: {path}"] if path is not None else []
    parts += list(run.outputs.saved or ()) + list(run.notes[-1:])
    return "\n".join(parts)
