"""Record cpufreq and devfreq governors; set ``performance`` for a run and always restore."""

from __future__ import annotations

import atexit
import signal
from types import FrameType

from ..errors import SysrootError
from ..platform.cpufreq import governor_files
from ..platform.sysroot import Sysroot

PERFORMANCE = "performance"


class GovernorGuard:
    """Changes governors only when asked, and puts every changed file back exactly once."""

    def __init__(self, sysroot: Sysroot) -> None:
        self.sysroot = sysroot
        self.recorded = governor_files(sysroot)
        self.changed: dict[str, str] = {}
        self.errors: list[str] = []
        self._previous_sigterm: object = None

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
            self._previous_sigterm = signal.getsignal(signal.SIGTERM)
            try:
                signal.signal(signal.SIGTERM, self._on_sigterm)
            except ValueError:  # not the main thread
                self._previous_sigterm = None

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        self.restore()
        raise KeyboardInterrupt(f"signal {signum}")

    def restore(self) -> list[str]:
        """Write back every changed value; returns the files restored."""
        done = []
        for rel, value in list(self.changed.items()):
            try:
                self.sysroot.write(rel, value)
                done.append(rel)
            except SysrootError as exc:
                self.errors.append(f"could not restore {exc}")
            del self.changed[rel]
        if self._previous_sigterm is not None:
            try:
                signal.signal(signal.SIGTERM, self._previous_sigterm)  # type: ignore[arg-type]
            except ValueError:
                pass
            self._previous_sigterm = None
        return done
