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
    """Why the run's board stopped answering (:func:`..run.queries.board_lost`), or None."""
    run = existing(config)
    if run is None:
        return None
    from ..run.queries import board_lost

    return board_lost(run)


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
    """Write the run's files, then put the governors back (a failure shows in the summary);
    the exit status is the run's (:func:`..run.queries.exit_status`)."""
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
    from ..run.gate import GATE_UNDECIDED
    from ..run.queries import exit_status

    code = exit_status(run, int(session.exitstatus), session.testsfailed, late)
    if code != session.exitstatus:
        session.exitstatus = code if code == GATE_UNDECIDED else pytest.ExitCode(code)
