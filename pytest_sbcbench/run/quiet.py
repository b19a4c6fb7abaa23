"""The run's waits for a quiet host: the idle gate before each test and the settle wait before
a disturbed measurement is re-measured (``--sbc-idle-wait`` bounds both; 0 turns the host
checks off).

A wait that expires means the host never went idle: that is said once per run (a note in the
summary) and later tests of the run start without waiting, since waiting again would cost
every test the whole bound for nothing (their own measurement windows still say who ran
beside them).  The clock and the sleep are injectable."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model import Finding
    from ..platform.host import Host
    from ..settings import Settings


class Quiet:
    """One run's host waits; ``notes`` receives the one "never went idle" line."""

    def __init__(self, notes: list[str], clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.notes = notes
        self.clock = clock
        self.sleep = sleep
        self.busy: Finding | None = None  # the wait that expired: the host never went idle

    @staticmethod
    def enabled(settings: Settings) -> bool:
        """Host checks run on this machine with a positive ``--sbc-idle-wait``; never on a
        captured tree (its counters never move: its load is unknown, not unsettled)."""
        return settings.idle_wait > 0 and settings.sysroot.is_host

    def before_test(self, settings: Settings, host: Host) -> Finding | None:
        """The idle gate: the finding of a wait that expired (the first one only)."""
        if not self.enabled(settings) or self.busy is not None:
            return None
        return self._wait(settings, host)

    def settle(self, settings: Settings, host: Host) -> bool:
        """Before re-measuring: True when the host settled (at once when it already was);
        False when it did not, or is known not to (no wait then)."""
        if not self.enabled(settings) or self.busy is not None:
            return False
        return self._wait(settings, host) is None

    def _wait(self, settings: Settings, host: Host) -> Finding | None:
        from ..measure.idle import wait_for_idle

        waited, finding = wait_for_idle(settings.idle_wait, host=host, clock=self.clock,
                                        sleep=self.sleep)
        if finding is not None:
            self.busy = finding
            self.notes.append(f"the host never went idle: the idle wait expired after "
                              f"{waited:.1f} s (its background-load finding says who ran); later "
                              "tests of this run start without waiting for it "
                              "(--sbc-idle-wait)")
        return finding
