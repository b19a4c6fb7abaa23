"""Record cpufreq and devfreq governors; set ``performance`` for a run and always restore."""

from __future__ import annotations

import atexit
import signal
from types import FrameType

from ..errors import SysrootError
from ..platform.cpufreq import governor_files
from ..platform.sysroot import Sysroot

PERFORMANCE = "performance"
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


class GovernorGuard:
    """Changes governors only when asked, and puts every changed file back exactly once: at
    :meth:`restore`, at exit, and on SIGTERM, SIGHUP or SIGQUIT (which then go on to the
    handler that was there before, or stop the run as Ctrl-C would).  A value that cannot be
    put back is listed in :attr:`restore_failures` (the caller reports it)."""

    def __init__(self, sysroot: Sysroot) -> None:
        self.sysroot = sysroot
        self.recorded = governor_files(sysroot)
        self.changed: dict[str, str] = {}
        self.errors: list[str] = []
        self.restore_failures: list[str] = []
        self._previous: dict[int, object] = {}

    def set_performance(self) -> None:
        for rel, value in self.recorded.items():
            if value == PERFORMANCE:
                continue
            try:
                self.sysroot.write(rel, PERFORMANCE)
            except SysrootError as exc:
                self.errors.append(str(exc))
                continue
            self.changed[rel] = value
        if self.changed:
            atexit.register(self.restore)
            self._catch_signals()

    def _catch_signals(self) -> None:
        for signum in SIGNALS:
            current = signal.getsignal(signum)
            if current is signal.SIG_IGN:
                continue  # nohup: the signal cannot end the run, so it must not restore
            try:
                signal.signal(signum, self._on_signal)
            except ValueError:  # not the main thread
                return
            self._previous[signum] = current

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        previous = self._previous.get(signum)
        self.restore()
        if callable(previous):
            previous(signum, frame)  # Ctrl-C's path under the plugin (see interrupts.py)
            return
        raise KeyboardInterrupt(signal.Signals(signum).name)

    def restore(self) -> list[str]:
        """Write back every changed value; returns the files restored.  Failures are added to
        :attr:`restore_failures` and :attr:`errors`."""
        done = []
        for rel, value in list(self.changed.items()):
            try:
                self.sysroot.write(rel, value)
                done.append(rel)
            except SysrootError as exc:
                failure = f"could not restore governor {value!r}: {exc}"
                self.errors.append(failure)
                self.restore_failures.append(failure)
            del self.changed[rel]
        for signum, handler in self._previous.items():
            try:
                signal.signal(signum, handler if handler is not None  # type: ignore[arg-type]
                              else signal.SIG_DFL)
            except ValueError:
                break
        self._previous.clear()
        return done
