"""The controller's CPU while an emulated board runs a test (labgrid's QEMUDriver).

An emulated board runs at the speed this machine gives the emulator: time the hypervisor gives
other guests (steal) and other work on this machine slow the board as they would slow a local
benchmark, and nothing on the board can see it.  :class:`EmulatorHost` reads this machine's
system counters and this process tree's CPU time (the emulator is a child of the pytest
process: labgrid's QEMUDriver starts it) at the start and the end of one test; when other work
kept more than :data:`~.background.OTHER_CPUS` busy beside it, every process is scanned twice
then, :data:`~.background.SCAN_STEP_S` apart, to name who."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..platform.host import USER_HZ, CpuTimes, Host
from .background import OTHER_CPUS, Background, Sleep, Window
from .cputime import ProcessTree, share


@dataclass(frozen=True)
class HostShare:
    """What this machine did during one test beside the emulator."""

    seconds: float       # wall seconds between the two readings
    steal_pct: float     # share of all CPU time the hypervisor gave to other guests
    other_cpus: float    # CPUs busy with work outside this process tree (the emulator's)
    who: str = ""        # the processes and kernel threads that were, when it was loaded


class EmulatorHost:
    """Two readings of ``host`` (this controller): at construction and at :meth:`stop`."""

    def __init__(self, host: Host, pid: int | None = None) -> None:
        self.host = host
        self._tree = ProcessTree(pid, host=host)
        self._tree_s, _ = self._tree.read()
        self._times: CpuTimes | None = host.cpu_times()

    def stop(self, sleep: Sleep = time.sleep) -> HostShare | None:
        """The share since the start; None when the host has no system counters or no time
        passed."""
        now = self.host.cpu_times()
        tree_s, _ = self._tree.read()
        if now is None or self._times is None:
            return None
        cpu = share(self._times, now)
        if cpu is None:
            return None
        seconds = (now.total - self._times.total) / USER_HZ / now.cpus
        tree_cpus = max(0.0, tree_s - self._tree_s) / seconds
        other = max(0.0, cpu.busy - tree_cpus)
        return HostShare(seconds, cpu.steal_pct, other,
                         self._who(other, sleep) if other > OTHER_CPUS else "")

    def _who(self, other: float, sleep: Sleep) -> str:
        found = Background(self.host, time.monotonic).attribute_now(self._tree.pids, sleep)
        seen = Window(0.0, 0.0, other, None, found)
        return "; ".join(p for p in (seen.others(), seen.kernel()) if p)
