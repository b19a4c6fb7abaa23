"""The end of a test and of the run: a lost lab board stops the run (``pytest_runtest_makereport``),
and ``pytest_sessionfinish`` writes the run's files and sets the exit status (interrupted, an
output lost, a regression at the end, gate mode's cannot-gate and undecided), then holds the
terminating signals while pytest prints its summary."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING

import pytest

from ..errors import BoardLost
from .state import existing

if TYPE_CHECKING:
    from ..run.session import Session


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A lab board that stopped answering (:class:`~..errors.BoardLost`: its emulator exited,
    its console broke) fails its test with one line naming it and stops the run there: the
    remaining tests would each wait on a dead console and end in a traceback.  The run then
    ends as interrupted (exit 2): this boot's results are written, marked interrupted, and
    no baseline session of it is saved (a boot is saved whole or not at all); the boots
    before it were written when they ended."""
    report = yield
    lost = _lost(item.config)
    if lost is None and call.excinfo is not None and isinstance(call.excinfo.value, BoardLost):
        lost = str(call.excinfo.value)
    if lost is not None:
        if report.failed:
            report.longrepr = f"sbcbench: {lost}"
        item.session.shouldstop = f"sbcbench: the board stopped answering: {lost}"
    return report


def _lost(config: pytest.Config) -> str | None:
    """Why the run's board stopped answering (its executor says), or None."""
    run = existing(config)
    if run is None or not run.active or run.lab is None:
        return None
    lost = getattr(run.target.executor, "lost", None)
    return lost if isinstance(lost, str) else None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, object, object]:
    """Write the run's files (:func:`_finish`), then let pytest print its summary with
    SIGINT, SIGTERM, SIGHUP and SIGQUIT held: a signal while the summary is printed (the files
    are whole by then) ends the run as interrupted (exit 2) with one line, never a
    ``KeyboardInterrupt`` traceback and exit 130."""
    run = existing(session.config)
    with _recorded(session.config):
        _finish(session, run)
    if run is None or not run.active:
        return (yield)
    from ..platform.interrupts import deferred, signal_name

    cut: str | None = None
    try:
        with deferred() as held:
            outcome = yield
    except KeyboardInterrupt as exc:  # a second signal: the summary was cut short
        outcome, cut = None, str(exc) or "SIGINT"
    why = cut or ", ".join(signal_name(s) for s in held.received)
    if why:
        session.exitstatus = pytest.ExitCode.INTERRUPTED
        import sys

        print(f"sbcbench: interrupted ({why}) while the summary was printed; the run's files "
              "were already written", file=sys.stderr)
    return outcome


@contextlib.contextmanager
def _recorded(config: pytest.Config) -> Iterator[None]:
    """Warnings raised while finishing (a governor that cannot be restored) reach pytest's
    warnings summary through its public ``pytest_warning_recorded`` hook, as those of any
    other ``pytest_sessionfinish``: this hook runs outside pytest's own warnings capture, so
    that it can hold the signals around the summary."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for message in caught:
        config.hook.pytest_warning_recorded.call_historic(
            kwargs={"warning_message": message, "when": "config", "nodeid": "",
                    "location": None})


def _finish(session: pytest.Session, run: Session | None) -> None:
    """Write the run's files, then put the governors back (a failure shows in the summary).
    An interrupt that arrived while finishing makes the run exit as interrupted."""
    if run is None:
        return
    try:
        late = run.finish(bool(session.testscollected),
                          interrupted=session.exitstatus == pytest.ExitCode.INTERRUPTED)
    except KeyboardInterrupt:  # a second interrupt while a write was held: it was abandoned
        run.notes.append("interrupted twice while finishing the run: the file being written "
                         "was left as it was (writes are atomic)")
        late = True
    finally:
        run.preflight.restore_governors()
    if late:
        session.exitstatus = pytest.ExitCode.INTERRUPTED
    elif run.outputs.failed:  # an output was lost: never a green run (the summary says which)
        session.exitstatus = pytest.ExitCode.USAGE_ERROR
    elif run.closing is not None and run.closing.failed and not run.settings.save_baseline:
        run.notes.extend(_closing_lines(run))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif run.settings.gate and session.exitstatus == pytest.ExitCode.OK:
        from ..run.gate import GATE_UNDECIDED, undecided

        left = undecided(run.recorder.results)
        if left:
            run.notes.append(left)
            session.exitstatus = GATE_UNDECIDED
    elif run.settings.gate and session.exitstatus == pytest.ExitCode.TESTS_FAILED:
        from ..run.gate import cannot_gate

        refused = cannot_gate(run.recorder.results, session.testsfailed,
                              run.settings.allow_incomparable)
        if refused:  # every failure an incomparable result: no regression, so never exit 1
            run.notes.append(refused)
            session.exitstatus = pytest.ExitCode.USAGE_ERROR


def _closing_lines(run: Session) -> list[str]:
    """What the end of the run added: regressions by Holm's later steps, the suite mean."""
    closing = run.closing
    assert closing is not None
    lines = [f"regression at the end of the run (Holm's later steps; its test had passed): "
             f"{run.recorder.results[i].test}" for i in closing.added]
    if closing.suite.status == "regression":
        lines.append(f"regression: {closing.suite.detail}")
    return lines
