"""``--sbc-boots N`` or ``auto``: the selected suite run N times (``auto``: until the gate is
decided, at most ``--sbc-boots-budget`` times) with a reboot of the lab board between.

pytest's own test loop runs once per boot (the same items, the same node ids, so every boot's
results are judged against the same baseline entries); after each boot but the last, every
fixture is torn down (the last item's ``nextitem`` is None), that boot's outputs are written
(results file ``NAME.bootI.json``, history, baseline save) and the board is rebooted
(:func:`pytest_sbcbench.run.boot_cycle.next_boot`), which checks that its boot id
changed and returns the next boot, which the session installs.  The last boot finishes as any
run does, at session finish."""

from __future__ import annotations

import pytest

from ..errors import SbcBenchError
from ..words import counted
from .state import existing

NO_LAB = ("--sbc-boots {n} --sbc-save-baseline reboots the board between boots through the lab "
          "(-p labgrid --lg-env ENV: labgrid power, or reboot over the board's shell); without "
          "a lab the controller would have to reboot itself, which ends this run. Record the "
          "baseline's boots by hand instead: one --sbc-save-baseline run per boot, rebooting "
          "in between")


def check(boots: int | str | None, has_lab: bool, saving: bool = False) -> None:
    """More than one boot in one run needs a lab.  Without one, ``--sbc-boots N`` and ``auto``
    plan the label's boots for runs recorded by hand (each run one boot of the plan: N, one
    look at boot N; ``auto``, a look at every boot), which a baseline save has no use for."""
    if isinstance(boots, int) and boots > 1 and not has_lab and saving:
        raise pytest.UsageError(NO_LAB.format(n=boots))


def _one_round(session: pytest.Session) -> None:
    """pytest's own loop over the items (main.pytest_runtestloop's body)."""
    items = session.items
    for i, item in enumerate(items):
        nextitem = items[i + 1] if i + 1 < len(items) else None
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    run = existing(session.config)
    if run is None or not run.active or session.config.option.collectonly:
        return None
    # imported here: a project without benchmarks never imports the run layer
    from ..run.boot_cycle import auto_line, auto_outcome, boots_of, next_boot, with_boots

    if boots_of(run) <= 1:
        return None  # pytest's own loop
    auto = run.settings.boots_auto
    if auto:
        run.install(with_boots(run, boots_of(run)))  # the budget, until decided

    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        raise session.Interrupted(f"{counted(session.testsfailed, 'error')} during collection")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    most = "at most " if auto else ""
    for boot in range(1, boots_of(run) + 1):
        if reporter is not None:
            reporter.write_sep("-", f"sbcbench: boot {boot} of {most}{boots_of(run)}")
        _one_round(session)
        outcome = auto_outcome(run) if auto else None
        if auto and (outcome is not None or boot == boots_of(run)):
            run.notes.append(auto_line(run, outcome))
            run.install(with_boots(run, boot))  # this boot is the last: written as the last
            break
        if boot < boots_of(run):
            try:
                line, planned = next_boot(run)
            except SbcBenchError as exc:  # the reboot failed: boots so far are written
                pytest.exit(f"sbcbench: --sbc-boots stopped after boot {boot} of {boots_of(run)}: "
                            f"{exc}", returncode=4)
            run.install(planned)
            if reporter is not None:
                reporter.write_line(line)
    return True
